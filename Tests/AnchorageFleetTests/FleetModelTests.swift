import AnchorageTesting
import Testing

@testable import AnchorageFleet

/// The controller's plan and every node's copies together, against a model
/// of etcd's placements: nodes die, come back and lag behind the
/// placements; replicas report primaries unreachable; work ends in any
/// order, late. Whatever happens, one node leads a store per epoch, a
/// store's epoch only grows, and a copy leads only at an epoch etcd gave its
/// node; once the fleet is whole again, every store is led.
@Suite("The controller and the copies together: generated histories against a model of placements")
struct FleetModelTests {
    /// One node as the model runs it: its view of the placements (it lags,
    /// store by store), its copies' lifecycles, and the work they started.
    struct Node {
        var live = true
        var view: [String: PlacementRecord] = [:]
        var copies: [String: CopyLifecycle] = [:]
        var work: [(store: String, effect: CopyLifecycle.Effect)] = []
    }

    /// A fleet of four nodes and three stores, run by the model.
    struct Fleet {
        let ids = ["n1", "n2", "n3", "n4"]
        var nodes: [String: Node]
        /// etcd's placements.
        var placements: [String: PlacementRecord] = [:]
        var revision: Int64 = 10
        /// Store → epoch → the primary etcd named for it.
        var given: [String: [Int64: String]] = [:]
        /// Store → epoch → the nodes that led it then.
        var leaders: [String: [Int64: Set<String>]] = [:]
        var unreachable: [String: Set<String>] = [:]
        var leads = 0

        init(random: inout SeededGenerator) {
            nodes = Dictionary(uniqueKeysWithValues: ids.map { ($0, Node()) })
            for (index, store) in ["s0", "s1", "s2"].enumerated() {
                let copies = Array(ids.shuffled(using: &random).prefix(3))
                placements[store] = PlacementRecord(
                    store: store,
                    placement: Placement(primary: copies[0], replicas: Array(copies.dropFirst()), epoch: 1),
                    modRevision: Int64(index + 1)
                )
                given[store] = [1: copies[0]]
            }
        }

        /// `node` is told its view of `store`.
        mutating func deliver(_ node: String, _ store: String) {
            guard nodes[node]!.live else { return }
            let record = nodes[node]!.view[store]
            var copy = nodes[node]!.copies[store] ?? CopyLifecycle(store: store, node: node)
            let gone = record?.placement.copies.contains { !nodes[$0]!.live } ?? false
            let effects = copy.place(record?.placement, predecessorGone: gone)
            nodes[node]!.copies[store] = copy
            run(node, store, effects)
        }

        mutating func run(_ node: String, _ store: String, _ effects: [CopyLifecycle.Effect]) {
            for effect in effects {
                switch effect {
                case .lead(let epoch, _):
                    #expect(given[store]?[epoch] == node, "\(node) leads \(store) at \(epoch), not given it")
                    // Past epoch 1, only once another live copy follows it (it pulled the epoch entry).
                    let nodes = self.nodes
                    #expect(
                        epoch == 1
                            || ids.contains {
                                $0 != node && nodes[$0]!.live && nodes[$0]!.copies[store]?.following == node
                            },
                        "\(node) leads \(store) at \(epoch) with no copy following it"
                    )
                    leaders[store, default: [:]][epoch, default: []].insert(node)
                    leads += 1
                case .stopWork:
                    // Cancelled work may still end and report (late): it stays, and its outcomes come
                    // with its own generation.
                    break
                default:
                    nodes[node]!.work.append((store, effect))
                }
            }
        }

        /// The controller looks (from etcd's placements) and applies its decisions.
        mutating func controllerRound() {
            let nodes = self.nodes
            let decisions = ControllerPlan.decisions(
                placements: Array(placements.values),
                live: ids.filter { nodes[$0]!.live }.map { .init(id: $0, load: 0) },
                goneFor: { _ in .seconds(1) },
                replaceAfter: .seconds(60),
                balanceLimit: 2,
                unreachable: unreachable.mapValues { $0.filter { nodes[$0]!.live } }
            )
            for decision in decisions {
                let store = decision.record.store
                let before = placements[store]!
                #expect(decision.placement.epoch >= before.placement.epoch, "an epoch went back")
                revision += 1
                placements[store] = PlacementRecord(store: store, placement: decision.placement, modRevision: revision)
                if decision.placement.epoch > before.placement.epoch {
                    #expect(given[store]?[decision.placement.epoch] == nil, "an epoch given twice")
                    given[store, default: [:]][decision.placement.epoch] = decision.placement.primary
                }
            }
        }

        /// Ends work item `index` of `node` if it can end now (a wait for a
        /// copy ends once another live copy follows this node).
        mutating func finish(_ node: String, at index: Int) {
            let (store, effect) = nodes[node]!.work.remove(at: index)
            var event: (CopyLifecycle.Event, Int)?
            switch effect {
            case .waitLockDelay(let generation): event = (.lockDelayPassed, generation)
            case .beginEpoch(_, let generation): event = (.epochBegun(seq: 1), generation)
            case .awaitCopy(_, let generation), .catchUp(_, let generation):
                let nodes = self.nodes
                let followed = ids.contains { other in
                    other != node && nodes[other]!.live && nodes[other]!.copies[store]?.following == node
                }
                if !followed {
                    self.nodes[node]!.work.append((store, effect))  // still waiting
                } else if case .awaitCopy = effect {
                    event = (.epochPulled, generation)
                } else {
                    event = (.caughtUp, generation)
                }
            case .retry(let inner, _):
                nodes[node]!.work.append((store, inner))
            default:
                break
            }
            if let (event, generation) = event, var copy = nodes[node]!.copies[store] {
                let effects = copy.handle(event, generation: generation)
                nodes[node]!.copies[store] = copy
                run(node, store, effects)
            }
        }

        func checkOneLeaderPerEpoch() {
            for (store, epochs) in leaders {
                for (epoch, nodes) in epochs { #expect(nodes.count == 1, "\(store) led by \(nodes) at epoch \(epoch)") }
            }
        }
    }

    @Test(
        "generated histories: one leader per store and epoch, epochs only grow, a copy leads only at an epoch etcd gave its node, and every store is led once the fleet is whole again"
    )
    func histories() {
        var random = SeededGenerator(seed: 5_309)
        var leads = 0
        for _ in 0..<200 {
            var fleet = Fleet(random: &random)
            let ids = fleet.ids
            for _ in 0..<160 {
                switch Int.random(in: 0..<12, using: &random) {
                case 0:
                    // A node dies (two always live: the stores keep a majority of their copies).
                    let alive = ids.filter { fleet.nodes[$0]!.live }
                    if alive.count > 2, let victim = alive.randomElement(using: &random) {
                        fleet.nodes[victim] = Node(live: false)
                    }
                case 1:
                    // A dead node comes back: it reads the placements and starts its copies anew.
                    if let back = ids.filter({ !fleet.nodes[$0]!.live }).randomElement(using: &random) {
                        fleet.nodes[back] = Node(view: fleet.placements)
                        for store in fleet.placements.keys.sorted() { fleet.deliver(back, store) }
                    }
                case 2:
                    // A live node reports another unreachable, or withdraws.
                    let reporter = ids.randomElement(using: &random)!
                    let target = ids.randomElement(using: &random)!
                    if reporter != target, fleet.nodes[reporter]!.live {
                        if Bool.random(using: &random) {
                            fleet.unreachable[target, default: []].insert(reporter)
                        } else {
                            fleet.unreachable[target]?.remove(reporter)
                        }
                    }
                case 3, 4:
                    fleet.controllerRound()
                case 5, 6:
                    // A node's watch catches up on one store.
                    let node = ids.randomElement(using: &random)!
                    let store = ["s0", "s1", "s2"].randomElement(using: &random)!
                    guard fleet.nodes[node]!.live else { continue }
                    fleet.nodes[node]!.view[store] = fleet.placements[store]
                    fleet.deliver(node, store)
                default:
                    // Some work of some live node ends, in any order.
                    let node = ids.randomElement(using: &random)!
                    guard fleet.nodes[node]!.live, !fleet.nodes[node]!.work.isEmpty else { continue }
                    fleet.finish(node, at: Int.random(in: 0..<fleet.nodes[node]!.work.count, using: &random))
                }
                fleet.checkOneLeaderPerEpoch()
            }
            // Healed: every node back, no reports, views current, the work run until nothing changes.
            fleet.unreachable = [:]
            for id in ids where !fleet.nodes[id]!.live {
                fleet.nodes[id] = Node(view: fleet.placements)
                for store in fleet.placements.keys.sorted() { fleet.deliver(id, store) }
            }
            for _ in 0..<20 {
                fleet.controllerRound()
                for id in ids {
                    for store in fleet.placements.keys.sorted() {
                        fleet.nodes[id]!.view[store] = fleet.placements[store]
                        fleet.deliver(id, store)
                    }
                    for _ in 0..<8 where !fleet.nodes[id]!.work.isEmpty { fleet.finish(id, at: 0) }
                }
            }
            fleet.checkOneLeaderPerEpoch()
            for record in fleet.placements.values {
                #expect(
                    fleet.nodes[record.placement.primary]!.copies[record.store]?.leads(at: record.placement.epoch)
                        == true,
                    "\(record.store) is not led once the fleet is whole: \(record.placement)"
                )
            }
            leads += fleet.leads
        }
        #expect(leads > 300, "the histories lead often enough to test it: \(leads)")
    }
}
