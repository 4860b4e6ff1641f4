import AnchorageTesting
import Testing

@testable import AnchorageFleet

@Suite("The controller's plan: primaries spread over the nodes")
struct ControllerPlanBalanceTests {
    /// The placements after `rounds` of the controller applying its plan
    /// (each decision as it says), until a plan decides nothing.
    static func settle(
        _ records: [PlacementRecord],
        live: [PlacementPolicy.Candidate],
        draining: Set<String> = [],
        limit: Int,
        rounds: Int = 1_000
    ) -> (records: [PlacementRecord], decisions: [ControllerPlan.Decision]) {
        var records = records
        var all: [ControllerPlan.Decision] = []
        for _ in 0..<rounds {
            let decisions = ControllerPlan.decisions(
                placements: records,
                live: live,
                goneFor: { _ in nil },
                replaceAfter: .seconds(60),
                draining: draining,
                balanceLimit: limit
            )
            if decisions.isEmpty { return (records, all) }
            #expect(decisions.count <= limit + records.count)
            all += decisions
            for decision in decisions {
                let index = records.firstIndex { $0.store == decision.record.store }!
                records[index] = PlacementRecord(
                    store: decision.record.store,
                    placement: decision.placement,
                    modRevision: decision.record.modRevision + 1
                )
            }
        }
        Issue.record("the plan did not settle in \(rounds) rounds")
        return (records, all)
    }

    static func led(_ records: [PlacementRecord], among nodes: [String]) -> [String: Int] {
        var led = Dictionary(uniqueKeysWithValues: nodes.map { ($0, 0) })
        for record in records where led[record.placement.primary] != nil { led[record.placement.primary]! += 1 }
        return led
    }

    /// Places `count` stores one by one as the controller does (the policy,
    /// with loads and primaries counted so far).
    static func place(_ count: Int, on nodes: [(id: String, zone: String?)]) -> [PlacementRecord] {
        var records: [PlacementRecord] = []
        for index in 0..<count {
            var load: [String: Int] = [:]
            for record in records { for node in record.placement.copies { load[node, default: 0] += 1 } }
            let led = Self.led(records, among: nodes.map(\.id))
            let chosen = PlacementPolicy.choose(
                count: 3,
                from: nodes.map { .init(id: $0.id, zone: $0.zone, load: load[$0.id] ?? 0, primaries: led[$0.id] ?? 0) }
            )
            records.append(
                PlacementRecord(
                    store: "s\(index)",
                    placement: Placement(primary: chosen[0], replicas: Array(chosen.dropFirst()), epoch: 1),
                    modRevision: 1
                )
            )
        }
        return records
    }

    @Test(
        "20 stores on 4 nodes, two of them in one zone: 5 primaries each from the start; a node back from a failover is handed its share"
    )
    func twentyStoresOnFourNodes() {
        let nodes: [(id: String, zone: String?)] = [("n1", "a"), ("n2", "a"), ("n3", "b"), ("n4", "c")]
        let ids = nodes.map(\.id)
        let placed = Self.place(20, on: nodes)
        #expect(Self.led(placed, among: ids) == ["n1": 5, "n2": 5, "n3": 5, "n4": 5])
        let everyone = nodes.map { PlacementPolicy.Candidate(id: $0.id, zone: $0.zone, load: 15) }
        #expect(Self.settle(placed, live: everyone, limit: 8).decisions.isEmpty, "balanced: nothing to hand over")
        // n1 goes: its stores fail over to the others.
        let without = everyone.filter { $0.id != "n1" }
        let failedOver = Self.settle(placed, live: without, limit: 8)
        let promotions = failedOver.decisions.filter { if case .promotion = $0.reason { true } else { false } }
        #expect(Set(promotions.map(\.record.store)) == Set(placed.filter { $0.placement.primary == "n1" }.map(\.store)))
        let afterFailover = Self.led(failedOver.records, among: ids)
        #expect(afterFailover["n1"] == 0)
        #expect(afterFailover.values.reduce(0, +) == 20)
        #expect(afterFailover.values.filter { $0 > 0 }.allSatisfy { (6...7).contains($0) }, "\(afterFailover)")
        // n1 is back: it leads nothing until handed its share, within one of everyone.
        let back = Self.settle(failedOver.records, live: everyone, limit: 3)
        let led = Self.led(back.records, among: ids)
        #expect(led.values.allSatisfy { (4...6).contains($0) }, "\(led)")
        #expect(led["n1"]! >= 4, "\(led)")
        for decision in back.decisions {
            guard case .balancing(let from) = decision.reason else {
                Issue.record("only handoffs for balance: \(decision.reason)")
                continue
            }
            #expect(from == decision.record.placement.primary)
            #expect(decision.record.placement.replicas.contains(decision.placement.primary))
            #expect(decision.placement.epoch == decision.record.placement.epoch + 1)
            #expect(Set(decision.placement.copies) == Set(decision.record.placement.copies))
        }
        // Moves are not wasted: each lowers the spread, so there are no more than needed to fill n1.
        #expect(back.decisions.count <= 5 * 2, "\(back.decisions.count) handoffs")
    }

    @Test(
        "random fleets settle where no chain of handoffs can even two nodes out (within ±1 when every node holds every store); only live replicas that stay take over"
    )
    func properties() {
        var random = SeededGenerator(seed: 5_306)
        var handoffs = 0
        for _ in 0..<300 {
            let nodes = (0..<Int.random(in: 2...7, using: &random)).map { "n\($0)" }
            let full = Bool.random(using: &random)
            let copies = full ? nodes.count : Int.random(in: 1...min(3, nodes.count), using: &random)
            let capacities = Dictionary(
                uniqueKeysWithValues: nodes.map { ($0, full ? 1 : Int.random(in: 1...3, using: &random)) }
            )
            let draining: Set<String> =
                full ? [] : Set(nodes.filter { _ in Int.random(in: 0..<8, using: &random) == 0 })
            let live = nodes.filter { _ in full || Int.random(in: 0..<6, using: &random) > 0 }.map {
                PlacementPolicy.Candidate(id: $0, load: 0, capacity: capacities[$0]!)
            }
            let liveIDs = Set(live.map(\.id))
            // Primaries piled on a few nodes, as failovers leave them.
            let records = (0..<Int.random(in: 0...40, using: &random)).map { index in
                var holders = Array(nodes.shuffled(using: &random).prefix(copies))
                holders.sort { ($0 == "n0" ? 0 : 1, $0) < ($1 == "n0" ? 0 : 1, $1) }
                return PlacementRecord(
                    store: "s\(index)",
                    placement: Placement(primary: holders[0], replicas: Array(holders.dropFirst()), epoch: 1),
                    modRevision: 1
                )
            }
            let settled = Self.settle(
                records,
                live: live,
                draining: draining,
                limit: Int.random(in: 1...8, using: &random)
            )
            for decision in settled.decisions {
                guard case .balancing(let from) = decision.reason else { continue }
                handoffs += 1
                #expect(from == decision.record.placement.primary && liveIDs.contains(from) && !draining.contains(from))
                let to = decision.placement.primary
                #expect(
                    decision.record.placement.replicas.contains(to) && liveIDs.contains(to) && !draining.contains(to)
                )
                #expect(Set(decision.placement.copies) == Set(decision.record.placement.copies))
                #expect(decision.placement.epoch == decision.record.placement.epoch + 1)
            }
            // Where it settled: no node leading more (relative to capacity) reaches, by handoffs, one leading two fewer.
            let active = live.map(\.id).filter { !draining.contains($0) }
            let led = Self.led(settled.records, among: active)
            var edges: [String: Set<String>] = [:]
            for record in settled.records where led[record.placement.primary] != nil {
                for replica in record.placement.replicas where led[replica] != nil {
                    edges[record.placement.primary, default: []].insert(replica)
                }
            }
            for source in active {
                var reached: Set<String> = [source]
                var frontier = [source]
                while let node = frontier.popLast() {
                    for next in edges[node] ?? [] where reached.insert(next).inserted { frontier.append(next) }
                }
                for target in reached where target != source {
                    let (p, q) = (led[source]!, led[target]!)
                    #expect(
                        (2 * q + 1) * capacities[source]! >= (2 * p - 1) * capacities[target]!,
                        "\(source) leads \(p), \(target) leads \(q), and a chain of handoffs joins them"
                    )
                }
            }
            if full && !settled.records.isEmpty {
                #expect(led.values.max()! - led.values.min()! <= 1, "\(led)")
            }
        }
        #expect(handoffs > 300, "the generated fleets need balancing: \(handoffs) handoffs")
    }
}
