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

    @Test(
        "a replica gone past the bound: a free live node in an unused zone joins, and counts only once it caught up at the current epoch"
    )
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
        // n4 is less loaded, but zone a holds the primary already: n5, in zone c, joins.
        let joining = Placement(primary: "n1", replicas: ["n2", "n3"], epoch: 3, joining: ["n5"])
        #expect(long.first?.placement == joining)
        #expect(long.first?.reason == .addition(joining: "n5"))
        // Not counted before it reports, nor on a report from an earlier epoch.
        let added = PlacementRecord(store: "alice", placement: joining, modRevision: 9)
        for report in [[:], [ControllerPlan.SyncedCopy(store: "alice", node: "n5"): 2]]
            as [[ControllerPlan.SyncedCopy: Int64]]
        {
            #expect(
                ControllerPlan.decisions(
                    placements: [added],
                    live: live,
                    goneFor: { _ in .seconds(90) },
                    replaceAfter: .seconds(60),
                    synced: report
                ).isEmpty
            )
        }
        let counted = ControllerPlan.decisions(
            placements: [added],
            live: live,
            goneFor: { _ in .seconds(90) },
            replaceAfter: .seconds(60),
            synced: [ControllerPlan.SyncedCopy(store: "alice", node: "n5"): 3]
        )
        #expect(counted.first?.placement == Placement(primary: "n1", replicas: ["n2", "n5"], epoch: 3))
        #expect(counted.first?.reason == .counting(added: "n5", removed: "n3"))
    }

    @Test("a draining primary hands over to a replica that stays; a move retires its copy once the new one counts")
    func handoffAndMove() {
        let live: [PlacementPolicy.Candidate] = [
            .init(id: "n1", load: 1), .init(id: "n2", load: 1), .init(id: "n3", load: 1), .init(id: "n4", load: 0),
        ]
        let store = Self.record("alice", "n1", ["n2", "n3"])
        let drained = ControllerPlan.decisions(
            placements: [store],
            live: live,
            goneFor: { _ in nil },
            replaceAfter: .seconds(60),
            draining: ["n1", "n2"]
        )
        #expect(drained.first?.placement == Placement(primary: "n3", replicas: ["n1", "n2"], epoch: 4))
        #expect(drained.first?.reason == .handoff(from: "n1"))
        // A move of the primary's copy to n4: hand over first, then n4 counts and n1 goes.
        let moving = PlacementRecord(
            store: "alice",
            placement: Placement(primary: "n1", replicas: ["n2", "n3"], epoch: 3, joining: ["n4"], retiring: ["n1"]),
            modRevision: 9
        )
        let first = ControllerPlan.decisions(
            placements: [moving],
            live: live,
            goneFor: { _ in nil },
            replaceAfter: .seconds(60)
        )
        #expect(first.first?.reason == .handoff(from: "n1"))
        let handed = PlacementRecord(store: "alice", placement: first[0].placement, modRevision: 10)
        #expect(
            handed.placement
                == Placement(primary: "n2", replicas: ["n1", "n3"], epoch: 4, joining: ["n4"], retiring: ["n1"])
        )
        let second = ControllerPlan.decisions(
            placements: [handed],
            live: live,
            goneFor: { _ in nil },
            replaceAfter: .seconds(60),
            synced: [ControllerPlan.SyncedCopy(store: "alice", node: "n4"): 4]
        )
        #expect(second.first?.placement == Placement(primary: "n2", replicas: ["n3", "n4"], epoch: 4))
        #expect(second.first?.reason == .counting(added: "n4", removed: "n1"))
    }

    @Test(
        "random fleets: every decision keeps copies distinct and counted copies at their number, promotes (a gone primary, or one no live replica reaches) or hands over only safely, counts only caught-up copies"
    )
    func properties() {
        var random = SeededGenerator(seed: 3_504)
        var kinds: [String: Int] = [:]
        for _ in 0..<500 {
            let nodes = (0..<Int.random(in: 2...8, using: &random)).map { "n\($0)" }
            let zones = ["a", "b", "c"]
            let alive = Set(nodes.filter { _ in Int.random(in: 0..<4, using: &random) > 0 })
            let draining = Set(alive.filter { _ in Int.random(in: 0..<6, using: &random) == 0 })
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
            var synced: [ControllerPlan.SyncedCopy: Int64] = [:]
            let records = (0..<Int.random(in: 1...10, using: &random)).map { index in
                let holders = Array(nodes.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
                let copies = Array(
                    holders.prefix(max(1, min(3, holders.count - Int.random(in: 0...1, using: &random))))
                )
                let joining = Array(holders.dropFirst(copies.count))
                let epoch = Int64.random(in: 1...9, using: &random)
                let retiring = copies.filter { _ in Int.random(in: 0..<5, using: &random) == 0 }
                for node in joining where Bool.random(using: &random) {
                    synced[ControllerPlan.SyncedCopy(store: "s\(index)", node: node)] =
                        epoch - Int64.random(in: 0...1, using: &random)
                }
                return PlacementRecord(
                    store: "s\(index)",
                    placement: Placement(
                        primary: copies[0],
                        replicas: Array(copies.dropFirst()),
                        epoch: epoch,
                        joining: joining,
                        retiring: retiring
                    ),
                    modRevision: 7
                )
            }
            let unclean = Bool.random(using: &random)
            // Some live nodes report some others unreachable.
            var unreachable: [String: Set<String>] = [:]
            for node in nodes where Int.random(in: 0..<3, using: &random) == 0 {
                unreachable[node] = Set(alive.filter { $0 != node && Bool.random(using: &random) })
            }
            func cutOff(_ placement: Placement) -> Bool {
                let liveReplicas = placement.replicas.filter(alive.contains)
                return !liveReplicas.isEmpty
                    && liveReplicas.allSatisfy { unreachable[placement.primary]?.contains($0) == true }
            }
            let decisions = ControllerPlan.decisions(
                placements: records,
                live: live,
                goneFor: { gone[$0] },
                replaceAfter: .seconds(60),
                allowUnclean: unclean,
                synced: synced,
                draining: draining,
                unreachable: unreachable
            )
            #expect(Set(decisions.map(\.record.store)).count == decisions.count, "one decision a store")
            for decision in decisions {
                let before = decision.record.placement
                let after = decision.placement
                kinds[String("\(decision.reason)".prefix { $0 != "(" }), default: 0] += 1
                #expect(Set(after.holders).count == after.holders.count, "a node twice: \(after)")
                #expect(Set(after.retiring).isSubset(of: after.copies))
                switch decision.reason {
                case .promotion(let liveCopies):
                    #expect(!alive.contains(before.primary) && alive.contains(after.primary))
                    #expect(before.replicas.contains(after.primary), "only a counted replica is promoted")
                    #expect(Set(after.copies) == Set(before.copies) && after.epoch == before.epoch + 1)
                    #expect(unclean || liveCopies >= before.copies.count - 1)
                case .unreachable(let liveCopies):
                    #expect(alive.contains(before.primary) && cutOff(before), "every live replica reports the primary")
                    #expect(before.replicas.contains(after.primary) && alive.contains(after.primary))
                    #expect(Set(after.copies) == Set(before.copies) && after.epoch == before.epoch + 1)
                    #expect(unclean || liveCopies >= before.copies.count - 1)
                case .handoff(let from):
                    #expect(from == before.primary && alive.contains(from))
                    #expect(draining.contains(from) || before.retiring.contains(from))
                    #expect(before.replicas.contains(after.primary) && alive.contains(after.primary))
                    #expect(!draining.contains(after.primary) && !before.retiring.contains(after.primary))
                    #expect(Set(after.copies) == Set(before.copies) && after.epoch == before.epoch + 1)
                case .addition(let joining):
                    #expect(before.joining.isEmpty && after.joining == [joining])
                    #expect(alive.contains(joining) && !draining.contains(joining) && !before.holders.contains(joining))
                    #expect(after.copies == before.copies && after.epoch == before.epoch)
                case .counting(let added, let removed):
                    #expect(before.joining.contains(added) && after.replicas.contains(added) && alive.contains(added))
                    #expect(
                        synced[ControllerPlan.SyncedCopy(store: decision.record.store, node: added)] == before.epoch,
                        "counted a copy that had not caught up at this epoch"
                    )
                    #expect(after.primary == before.primary && after.epoch == before.epoch)
                    if let removed {
                        #expect(before.replicas.contains(removed) && !after.holders.contains(removed))
                        #expect(
                            before.retiring.contains(removed)
                                || (!alive.contains(removed) && (gone[removed] ?? .zero) > .seconds(60))
                        )
                        #expect(after.copies.count == before.copies.count)
                    } else {
                        #expect(after.copies.count == before.copies.count + 1)
                    }
                case .abandonment(let joining):
                    #expect(!alive.contains(joining) && !after.holders.contains(joining))
                    #expect(after.copies == before.copies)
                case .balancing:
                    Issue.record("no handoff for balance without a balance limit: \(decision)")
                }
            }
            // And every decision that should be made is.
            for record in records {
                let placement = record.placement
                let decided = decisions.contains { $0.record.store == record.store }
                let liveReplicas = placement.replicas.filter(alive.contains)
                func handsOver(_ node: String) -> Bool { draining.contains(node) || placement.retiring.contains(node) }
                func lost(_ node: String) -> Bool { !alive.contains(node) && (gone[node] ?? .zero) > .seconds(60) }
                if !alive.contains(placement.primary) || cutOff(placement) {
                    let safe = !liveReplicas.isEmpty && (unclean || liveReplicas.count >= placement.copies.count - 1)
                    #expect(decided == safe, "\(placement), live \(alive)")
                } else if handsOver(placement.primary) && liveReplicas.contains(where: { !handsOver($0) }) {
                    #expect(decided, "a handoff is due: \(placement)")
                } else if placement.joining.contains(where: {
                    alive.contains($0)
                        && synced[ControllerPlan.SyncedCopy(store: record.store, node: $0)] == placement.epoch
                }) {
                    #expect(decided, "a caught-up copy is due to count: \(placement)")
                } else if placement.joining.contains(where: lost) {
                    #expect(decided, "a lost joining copy is due to go: \(placement)")
                } else if placement.joining.isEmpty
                    && placement.replicas.contains(where: { placement.retiring.contains($0) || lost($0) })
                {
                    let free = live.contains { !placement.holders.contains($0.id) && !draining.contains($0.id) }
                    #expect(decided == free, "\(placement), live \(alive)")
                } else {
                    #expect(!decided, "nothing is due: \(placement)")
                }
            }
        }
        #expect(kinds.count == 6, "the generated fleets exercise every kind of decision: \(kinds)")
    }
}
