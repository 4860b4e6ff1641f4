/// Chooses the nodes of a new store: the least loaded first (copies held
/// relative to capacity; ties by id), each next one from a zone not used
/// yet while there is one, so a zone's loss leaves a copy elsewhere; and of
/// those, the one leading the fewest stores (relative to capacity) as its
/// primary, so that primaries spread as evenly as copies do. A pure
/// function, tested without etcd.
///
/// ```swift
/// let nodes = PlacementPolicy.choose(count: 3, from: [
///     .init(id: "n1", zone: "a", load: 10, primaries: 4), .init(id: "n2", zone: "a", load: 0, primaries: 3),
///     .init(id: "n3", zone: "b", load: 5, primaries: 1),
/// ])   // ["n3", "n2", "n1"]: n2, n3 and n1 hold the copies, n3 leads the fewest
/// ```
public enum PlacementPolicy {
    /// A node as the policy weighs it.
    public struct Candidate: Sendable, Hashable {
        public var id: String
        public var zone: String?
        /// Store copies it holds.
        public var load: Int
        public var capacity: Int
        /// Stores it leads (holds the primary copy of).
        public var primaries: Int

        public init(id: String, zone: String? = nil, load: Int, capacity: Int = 1, primaries: Int = 0) {
            self.id = id
            self.zone = zone
            self.load = load
            self.capacity = max(1, capacity)
            self.primaries = primaries
        }

        /// Load relative to capacity, compared without division.
        func isLessLoaded(than other: Candidate) -> Bool {
            let mine = load * other.capacity
            let theirs = other.load * capacity
            return mine != theirs ? mine < theirs : id < other.id
        }
    }

    /// Up to `count` distinct nodes, the primary first; fewer when fewer
    /// nodes are given.
    public static func choose(count: Int, from candidates: [Candidate]) -> [String] {
        let copies = chooseCopies(count: count, from: candidates)
        // The copy leading the fewest stores leads this one (ties: the least loaded).
        guard
            let primary = copies.indices.min(by: { first, second in
                let (one, other) = (copies[first], copies[second])
                let mine = one.primaries * other.capacity
                let theirs = other.primaries * one.capacity
                return mine != theirs ? mine < theirs : first < second
            })
        else { return [] }
        var ordered = copies.map(\.id)
        ordered.insert(ordered.remove(at: primary), at: 0)
        return ordered
    }

    /// The copies' nodes, the least loaded first.
    static func chooseCopies(count: Int, from candidates: [Candidate]) -> [Candidate] {
        var left = candidates.sorted { $0.isLessLoaded(than: $1) }
        var chosen: [Candidate] = []
        var zones = Set<String>()
        while chosen.count < count, !left.isEmpty {
            // The least loaded in a new zone, else the least loaded.
            let index = left.firstIndex { $0.zone.map { !zones.contains($0) } ?? true } ?? 0
            let pick = left.remove(at: index)
            chosen.append(pick)
            if let zone = pick.zone { zones.insert(zone) }
        }
        return chosen
    }
}
