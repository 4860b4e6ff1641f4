import AnchorageTesting
import Testing

@testable import AnchorageFleet

@Suite("Placement policy: least loaded, distinct zones")
struct PlacementPolicyTests {
    @Test(
        "random fleets: distinct nodes, as many as asked or all there are, the least loaded among them, zones spread, the one leading fewest as primary"
    )
    func properties() {
        var random = SeededGenerator(seed: 3_501)
        for _ in 0..<2_000 {
            let zoned = Bool.random(using: &random)
            let zones = ["a", "b", "c", "d"].prefix(Int.random(in: 1...4, using: &random))
            let candidates = (0..<Int.random(in: 0...8, using: &random)).map { index in
                PlacementPolicy.Candidate(
                    id: "n\(index)",
                    zone: zoned ? zones.randomElement(using: &random) : nil,
                    load: Int.random(in: 0...20, using: &random),
                    capacity: Int.random(in: 1...3, using: &random),
                    primaries: Int.random(in: 0...3, using: &random)
                )
            }
            let count = Int.random(in: 1...4, using: &random)
            let chosen = PlacementPolicy.choose(count: count, from: candidates)
            #expect(chosen.count == min(count, candidates.count))
            #expect(Set(chosen).count == chosen.count, "distinct")
            guard let first = chosen.first else { continue }
            // The copies: the least loaded (relative to capacity; ties by id) among them.
            let byID = Dictionary(uniqueKeysWithValues: candidates.map { ($0.id, $0) })
            let lightest = candidates.min { $0.isLessLoaded(than: $1) }!
            #expect(chosen.contains(lightest.id))
            // The primary: the copy leading the fewest stores, relative to capacity.
            let leads = { (id: String) in Double(byID[id]!.primaries) / Double(byID[id]!.capacity) }
            #expect(chosen.allSatisfy { leads(first) <= leads($0) }, "\(chosen.map { byID[$0]! })")
            if zoned {
                // As many distinct zones as there can be.
                let available = Set(candidates.compactMap(\.zone)).count
                let used = Set(chosen.compactMap { byID[$0]?.zone }).count
                #expect(used == min(chosen.count, available), "\(candidates) → \(chosen)")
            }
        }
    }

    @Test("an even fleet fills evenly: 300 stores on 6 nodes in 3 zones, each store in 3 zones, loads within 1")
    func fillsEvenly() {
        var loads = Dictionary(uniqueKeysWithValues: (0..<6).map { ("n\($0)", 0) })
        let zone = { (id: String) in "z\(Int(id.dropFirst())! % 3)" }
        for _ in 0..<300 {
            let chosen = PlacementPolicy.choose(
                count: 3,
                from: loads.map { .init(id: $0.key, zone: zone($0.key), load: $0.value) }
            )
            #expect(Set(chosen.map(zone)).count == 3)
            for node in chosen { loads[node]! += 1 }
        }
        #expect(loads.values.max()! - loads.values.min()! <= 1, "\(loads)")
        #expect(loads.values.reduce(0, +) == 900)
    }
}
