extension ControllerPlan {
    /// Handoffs that spread the stores' primaries over the live nodes (a
    /// node that came back leads nothing; the policy's choices drift as
    /// nodes come and go), at most `limit` of them.
    ///
    /// A store can be led only by a node holding a counted copy, so a
    /// primary moves along a chain: node `u` hands a store to a replica `v`,
    /// `v` hands one of its own to `w`… Each round finds the shortest chain
    /// from a node leading more to one leading fewer — by at least two, both
    /// relative to capacity: `(2·p(w) + 1)·c(u) < (2·p(u) − 1)·c(w)` — and
    /// hands over along it: the nodes in between keep their count, `u` loses
    /// one and `w` gains one, so `Σ p²/c` falls every time and the rounds
    /// end (a chain longer than `limit` goes alone, whole). They end where no
    /// such chain is left: with equal capacities,
    /// every node within one of every other it can reach, i.e. within ±1 of
    /// stores/nodes unless the copies' zones forbid it.
    ///
    /// Left out: stores with a decision already, stores adding or retiring a
    /// copy, draining nodes (they hand over everything), and nodes not live
    /// (`eligible` false: gone, or suspected by the store's other copies).
    static func balancing(
        placements: [PlacementRecord],
        after decided: [Decision],
        live: [PlacementPolicy.Candidate],
        draining: Set<String>,
        limit: Int
    ) -> [Decision] {
        guard limit > 0 else { return [] }
        let capacity = Dictionary(
            live.filter { !draining.contains($0.id) }.map { ($0.id, $0.capacity) },
            uniquingKeysWith: { first, _ in first }
        )
        let changed = Dictionary(
            decided.map { ($0.record.store, $0.placement) },
            uniquingKeysWith: { first, _ in first }
        )
        var led: [String: Int] = capacity.mapValues { _ in 0 }
        // Stores that may move, by (leader, replica).
        var movable: [String: [String: [PlacementRecord]]] = [:]
        for record in placements {
            let placement = changed[record.store] ?? record.placement
            guard capacity[placement.primary] != nil else { continue }
            led[placement.primary, default: 0] += 1
            guard changed[record.store] == nil, placement.joining.isEmpty, placement.retiring.isEmpty else { continue }
            for replica in placement.replicas where capacity[replica] != nil {
                movable[placement.primary, default: [:]][replica, default: []].append(record)
            }
        }
        func unloads(_ from: String, to: String) -> Bool {
            let (leads, takes) = (led[from] ?? 0, led[to] ?? 0)
            return (2 * takes + 1) * capacity[from]! < (2 * leads - 1) * capacity[to]!
        }
        var decisions: [Decision] = []
        var used: Set<String> = []
        func take(_ from: String, _ to: String) -> PlacementRecord? {
            guard var records = movable[from]?[to] else { return nil }
            while let record = records.popLast() {
                movable[from]![to] = records
                if !used.contains(record.store) { return record }
            }
            return nil
        }
        while decisions.count < limit {
            // The heaviest first: ties by id, so the plan is a function of its inputs.
            let sources = led.keys.sorted {
                let (one, other) = (led[$0]! * capacity[$1]!, led[$1]! * capacity[$0]!)
                return one != other ? one > other : $0 < $1
            }
            var chain: [(from: String, to: String)]?
            for source in sources where (led[source] ?? 0) > 0 {
                chain = shortestChain(from: source, movable: movable, used: used) { unloads(source, to: $0) }
                if chain != nil { break }
            }
            // A chain longer than the limit goes whole, alone in its plan (in parts it could undo itself).
            guard let chain, decisions.isEmpty || chain.count <= limit - decisions.count else { break }
            for step in chain {
                guard let record = take(step.from, step.to) else { break }
                used.insert(record.store)
                var placement = record.placement
                placement.primary = step.to
                placement.replicas = record.placement.copies.filter { $0 != step.to }
                placement.epoch += 1
                decisions.append(Decision(record: record, placement: placement, reason: .balancing(from: step.from)))
            }
            led[chain[0].from]! -= 1
            led[chain[chain.count - 1].to]! += 1
        }
        return decisions
    }

    /// The shortest chain of handoffs from `source` to a node `accepts`
    /// (breadth first over "leads a store this node holds a replica of").
    private static func shortestChain(
        from source: String,
        movable: [String: [String: [PlacementRecord]]],
        used: Set<String>,
        accepts: (String) -> Bool
    ) -> [(from: String, to: String)]? {
        var parent: [String: String] = [source: source]
        var frontier = [source]
        while !frontier.isEmpty {
            var next: [String] = []
            for node in frontier {
                for target in (movable[node] ?? [:]).keys.sorted() where parent[target] == nil {
                    guard movable[node]![target]!.contains(where: { !used.contains($0.store) }) else { continue }
                    parent[target] = node
                    if accepts(target) {
                        var chain: [(from: String, to: String)] = []
                        var at = target
                        while at != source {
                            chain.insert((parent[at]!, at), at: 0)
                            at = parent[at]!
                        }
                        return chain
                    }
                    next.append(target)
                }
            }
            frontier = next
        }
        return nil
    }
}
