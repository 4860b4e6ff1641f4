import AnchorageTesting
import Testing

@testable import AnchorageFleet

@Suite("The controller's plan: promotions and re-replication")
struct ControllerPlanTests {
    static func record(_ store: String, _ primary: String, _ replicas: [String], epoch: Int64 = 3) -> PlacementRecord {
        PlacementRecord(
            store: store,
            placement: Placement(primary: primary, replicas: replicas, epoch: epoch),
            modRevision: 7
        )
    }

    @Test(
        "a lost primary: a live replica takes over at the next epoch, only with n - 1 copies live unless allowed unclean"
    )
    func promotion() {
        let store = Self.record("alice", "n1", ["n2", "n3"])
        let live: [PlacementPolicy.Candidate] = [
            .init(id: "n2", load: 1), .init(id: "n3", load: 1), .init(id: "n4", load: 0),
        ]
        let decisions = ControllerPlan.decisions(
            placements: [store],
            live: live,
            goneFor: { _ in .seconds(5) },
            replaceAfter: .seconds(60)
        )
        #expect(decisions.count == 1)
        #expect(decisions.first?.placement == Placement(primary: "n2", replicas: ["n1", "n3"], epoch: 4))
        #expect(decisions.first?.reason == .promotion(liveCopies: 2))
        // One copy reachable of three: it may lack acknowledged writes.
        let alone: [PlacementPolicy.Candidate] = [.init(id: "n3", load: 1), .init(id: "n4", load: 0)]
        #expect(
            ControllerPlan.decisions(
                placements: [store],
                live: alone,
                goneFor: { _ in nil },
                replaceAfter: .seconds(60)
            ).isEmpty
        )
        let unclean = ControllerPlan.decisions(
            placements: [store],
            live: alone,
            goneFor: { _ in nil },
            replaceAfter: .seconds(60),
            allowUnclean: true
        )
        #expect(unclean.first?.placement.primary == "n3")
        // Two copies in all: the one left holds every acknowledged write.
        let pair = Self.record("bob", "n1", ["n3"])
        #expect(
            ControllerPlan.decisions(placements: [pair], live: alone, goneFor: { _ in nil }, replaceAfter: .seconds(60))
                .first?.placement == Placement(primary: "n3", replicas: ["n1"], epoch: 4)
        )
    }

    @Test("a replica gone past the bound is replaced by a free live node in an unused zone; one gone briefly is not")
    func replacement() {
        let store = Self.record("alice", "n1", ["n2", "n3"])
        let live: [PlacementPolicy.Candidate] = [
            .init(id: "n1", zone: "a", load: 5), .init(id: "n2", zone: "b", load: 5),
            .init(id: "n4", zone: "a", load: 0), .init(id: "n5", zone: "c", load: 3),
        ]
        let brief = ControllerPlan.decisions(
            placements: [store],
            live: live,
            goneFor: { _ in .seconds(10) },
            replaceAfter: .seconds(60)
        )
        #expect(brief.isEmpty, "a restart is not a loss")
        let long = ControllerPlan.decisions(
            placements: [store],
            live: live,
            goneFor: { _ in .seconds(90) },
            replaceAfter: .seconds(60)
        )
        // n4 is less loaded, but zone a holds the primary already: n5, in zone c.
        #expect(long.first?.placement == Placement(primary: "n1", replicas: ["n2", "n5"], epoch: 3))
        #expect(long.first?.reason == .replacement(removed: "n3", added: "n5"))
    }

    @Test(
        "random fleets: every decision keeps the copies distinct and their number, promotes only a live replica safely, adds only a free live node"
    )
    func properties() {
        var random = SeededGenerator(seed: 3_504)
        for _ in 0..<500 {
            let nodes = (0..<Int.random(in: 2...8, using: &random)).map { "n\($0)" }
            let zones = ["a", "b", "c"]
            let alive = Set(nodes.filter { _ in Int.random(in: 0..<4, using: &random) > 0 })
            let gone = Dictionary(
                uniqueKeysWithValues: nodes.map { ($0, Duration.seconds(Int.random(in: 0...120, using: &random))) }
            )
            let live = nodes.filter(alive.contains).map {
                PlacementPolicy.Candidate(
                    id: $0,
                    zone: zones.randomElement(using: &random),
                    load: Int.random(in: 0...9, using: &random)
                )
            }
            let records = (0..<Int.random(in: 1...10, using: &random)).map { index in
                let copies = Array(nodes.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
                return Self.record(
                    "s\(index)",
                    copies[0],
                    Array(copies.dropFirst()),
                    epoch: Int64.random(in: 1...9, using: &random)
                )
            }
            let unclean = Bool.random(using: &random)
            let decisions = ControllerPlan.decisions(
                placements: records,
                live: live,
                goneFor: { gone[$0] },
                replaceAfter: .seconds(60),
                allowUnclean: unclean
            )
            #expect(Set(decisions.map(\.record.store)).count == decisions.count, "one decision a store")
            for decision in decisions {
                let before = decision.record.placement
                let after = decision.placement
                #expect(Set(after.copies).count == after.copies.count && after.copies.count == before.copies.count)
                switch decision.reason {
                case .promotion(let liveCopies):
                    #expect(!alive.contains(before.primary) && alive.contains(after.primary))
                    #expect(before.replicas.contains(after.primary))
                    #expect(Set(after.copies) == Set(before.copies) && after.epoch == before.epoch + 1)
                    #expect(unclean || liveCopies >= before.copies.count - 1)
                case .replacement(let removed, let added):
                    #expect(alive.contains(before.primary) && after.primary == before.primary)
                    #expect(!alive.contains(removed) && (gone[removed] ?? .zero) > .seconds(60))
                    #expect(alive.contains(added) && !before.copies.contains(added))
                    #expect(after.epoch == before.epoch)
                }
            }
            // And every decision that should be made is.
            for record in records {
                let placement = record.placement
                let decided = decisions.contains { $0.record.store == record.store }
                let liveReplicas = placement.replicas.filter(alive.contains).count
                if placement.copies.allSatisfy(alive.contains) {
                    #expect(!decided, "a store with every copy live is left alone")
                } else if !alive.contains(placement.primary) {
                    let safe = liveReplicas >= 1 && (unclean || liveReplicas >= placement.copies.count - 1)
                    #expect(decided == safe, "\(placement), live \(alive)")
                } else {
                    let lost = placement.replicas.contains { !alive.contains($0) && (gone[$0] ?? .zero) > .seconds(60) }
                    let free = live.contains { !placement.copies.contains($0.id) }
                    #expect(decided == (lost && free), "\(placement), live \(alive)")
                }
            }
        }
    }
}
