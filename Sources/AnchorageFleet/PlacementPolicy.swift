/// Chooses the nodes of a new store: the least loaded first (copies held
/// relative to capacity; ties by id), each next one from a zone not used
/// yet while there is one, so a zone's loss leaves a copy elsewhere. A
/// pure function, tested without etcd.
///
/// ```swift
/// let nodes = PlacementPolicy.choose(count: 3, from: [
///     .init(id: "n1", zone: "a", load: 10), .init(id: "n2", zone: "a", load: 0), .init(id: "n3", zone: "b", load: 5),
/// ])   // ["n2", "n3", "n1"]
/// ```
public enum PlacementPolicy {
    /// A node as the policy weighs it.
    public struct Candidate: Sendable, Hashable {
        public var id: String
        public var zone: String?
        /// Store copies it holds.
        public var load: Int
        public var capacity: Int

        public init(id: String, zone: String? = nil, load: Int, capacity: Int = 1) {
            self.id = id
            self.zone = zone
            self.load = load
            self.capacity = max(1, capacity)
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
        var left = candidates.sorted { $0.isLessLoaded(than: $1) }
        var chosen: [String] = []
        var zones = Set<String>()
        while chosen.count < count, !left.isEmpty {
            // The least loaded in a new zone, else the least loaded.
            let index = left.firstIndex { $0.zone.map { !zones.contains($0) } ?? true } ?? 0
            let pick = left.remove(at: index)
            chosen.append(pick.id)
            if let zone = pick.zone { zones.insert(zone) }
        }
        return chosen
    }
}
