import AnchorageTesting
import Testing

@testable import AnchorageFleet

@Suite("A copy's lifecycle: following, promoting, leading, handing off, dropping — without a fleet")
struct CopyLifecycleTests {
    typealias Effect = CopyLifecycle.Effect

    static func placement(_ primary: String, _ replicas: [String], epoch: Int64, joining: [String] = []) -> Placement {
        Placement(primary: primary, replicas: replicas, epoch: epoch, joining: joining)
    }

    @Test("a new store's primary begins epoch 1 and leads without waiting for a copy; its replicas follow it")
    func newStore() {
        var primary = CopyLifecycle(store: "alice", node: "n1")
        #expect(
            primary.place(Self.placement("n1", ["n2", "n3"], epoch: 1)) == [
                .stopWork, .create, .beginEpoch(1, generation: 1),
            ]
        )
        #expect(primary.handle(.epochBegun(seq: 1), generation: 1) == [.lead(epoch: 1, promoted: false)])
        #expect(primary.leads(at: 1) && !primary.leads(at: 2))
        var replica = CopyLifecycle(store: "alice", node: "n2")
        #expect(
            replica.place(Self.placement("n1", ["n2", "n3"], epoch: 1))
                == [.stopWork, .create, .follow(primary: "n1", epoch: 1, joining: false, generation: 1)]
        )
        #expect(replica.place(Self.placement("n1", ["n2", "n3"], epoch: 1)).isEmpty, "the same placement again")
        #expect(replica.following == "n1")
    }

    @Test(
        "a promotion after the predecessor's lease ended: lock-delay, epoch entry, a copy pulls it, catch-up, then it leads"
    )
    func promotionAfterExpiry() {
        var copy = CopyLifecycle(store: "alice", node: "n2")
        _ = copy.place(Self.placement("n1", ["n2", "n3"], epoch: 3))
        let promoted = Self.placement("n2", ["n1", "n3"], epoch: 4)
        #expect(copy.place(promoted, predecessorGone: true) == [.stopWork, .create, .waitLockDelay(generation: 2)])
        #expect(copy.handle(.lockDelayPassed, generation: 2) == [.beginEpoch(4, generation: 2)])
        #expect(copy.handle(.failed, generation: 2) == [.retry(.beginEpoch(4, generation: 2), generation: 2)])
        #expect(copy.handle(.epochBegun(seq: 90), generation: 2) == [.awaitCopy(seq: 90, generation: 2)])
        #expect(!copy.leads(at: 4), "not before another copy holds the epoch")
        #expect(copy.handle(.epochPulled, generation: 2) == [.catchUp(epoch: 4, generation: 2)])
        #expect(!copy.leads(at: 4), "not before it caught up")
        #expect(copy.handle(.caughtUp, generation: 2) == [.lead(epoch: 4, promoted: true)])
        #expect(copy.leads(at: 4))
    }

    @Test("a takeover from a live predecessor (a handoff, or one its replicas cannot reach) skips the lock-delay")
    func promotionFromLive() {
        var copy = CopyLifecycle(store: "alice", node: "n2")
        _ = copy.place(Self.placement("n1", ["n2", "n3"], epoch: 3))
        #expect(
            copy.place(Self.placement("n2", ["n1", "n3"], epoch: 4)) == [
                .stopWork, .create, .beginEpoch(4, generation: 2),
            ]
        )
    }

    @Test("a leader handing off stops taking writes before anything else, then follows the new primary")
    func handoff() {
        var copy = CopyLifecycle(store: "alice", node: "n1")
        _ = copy.place(Self.placement("n1", ["n2", "n3"], epoch: 1))
        _ = copy.handle(.epochBegun(seq: 1), generation: 1)
        let effects = copy.place(Self.placement("n2", ["n1", "n3"], epoch: 2))
        #expect(
            effects == [
                .stopLeading, .stopWork, .create, .follow(primary: "n2", epoch: 2, joining: false, generation: 2),
            ]
        )
        #expect(!copy.leads(at: 1) && !copy.leads(at: 2))
    }

    @Test(
        "races: a promotion overtaken by a handoff, a follower's outcome after a new primary, a lease lost mid-step — stale outcomes change nothing"
    )
    func races() {
        var copy = CopyLifecycle(store: "alice", node: "n2")
        _ = copy.place(Self.placement("n1", ["n2", "n3"], epoch: 3))
        _ = copy.place(Self.placement("n2", ["n1", "n3"], epoch: 4))  // generation 2: promoting
        _ = copy.handle(.epochBegun(seq: 90), generation: 2)
        // The controller hands the store on to n3 before n2 finished: epoch 5.
        #expect(
            copy.place(Self.placement("n3", ["n1", "n2"], epoch: 5)) == [
                .stopWork, .create, .follow(primary: "n3", epoch: 5, joining: false, generation: 3),
            ]
        )
        // The promotion's last steps report late: nothing happens, n2 never leads.
        #expect(copy.handle(.epochPulled, generation: 2).isEmpty)
        #expect(copy.handle(.caughtUp, generation: 2).isEmpty)
        #expect(!copy.leads(at: 4) && !copy.leads(at: 5) && copy.following == "n3")
        // An outcome that does not fit the phase is ignored too.
        #expect(copy.handle(.caughtUp, generation: 3).isEmpty)
        // A higher epoch held by another copy: the copy waits for the placement to catch up.
        var behind = CopyLifecycle(store: "bob", node: "n1")
        _ = behind.place(Self.placement("n1", ["n2"], epoch: 2))
        #expect(behind.handle(.higherEpochHeld, generation: 1).isEmpty)
        #expect(behind.phase == .superseded)
        #expect(behind.place(Self.placement("n1", ["n2"], epoch: 2)).isEmpty, "the same epoch: still waiting")
        #expect(
            behind.place(Self.placement("n1", ["n2"], epoch: 3)) == [.stopWork, .create, .beginEpoch(3, generation: 2)]
        )
    }

    @Test(
        "a joining copy reports once caught up, then counted as a replica goes on following; dropped when the placement no longer names it"
    )
    func joiningAndDropping() {
        var copy = CopyLifecycle(store: "alice", node: "n4")
        #expect(
            copy.place(Self.placement("n1", ["n2", "n3"], epoch: 2, joining: ["n4"]))
                == [.stopWork, .create, .follow(primary: "n1", epoch: 2, joining: true, generation: 1)]
        )
        #expect(copy.handle(.caughtUpAndReported, generation: 1).isEmpty && copy.reported)
        #expect(copy.place(Self.placement("n1", ["n2", "n4"], epoch: 2)).isEmpty, "counted: the same follower goes on")
        #expect(copy.place(Self.placement("n1", ["n2", "n3"], epoch: 2)) == [.stopWork, .drop])
        #expect(copy.place(nil).isEmpty, "dropped once")
        // A leader dropped (a move) stops taking writes first.
        var leader = CopyLifecycle(store: "bob", node: "n1")
        _ = leader.place(Self.placement("n1", ["n2"], epoch: 1))
        _ = leader.handle(.epochBegun(seq: 1), generation: 1)
        #expect(leader.place(nil) == [.stopLeading, .stopWork, .drop])
    }

    @Test("stopped by the node (a key shredded or re-sealed): nothing runs until restarted, then it begins as new")
    func stoppedAndRestarted() {
        var copy = CopyLifecycle(store: "alice", node: "n1")
        _ = copy.place(Self.placement("n1", ["n2"], epoch: 1))
        _ = copy.handle(.epochBegun(seq: 1), generation: 1)
        #expect(copy.stop() == [.stopLeading, .stopWork])
        #expect(copy.place(Self.placement("n1", ["n2"], epoch: 1)).isEmpty)
        #expect(copy.handle(.epochBegun(seq: 1), generation: 1).isEmpty)
        copy.restart()
        #expect(
            copy.place(Self.placement("n1", ["n2"], epoch: 1)) == [.stopWork, .create, .beginEpoch(1, generation: 3)]
        )
    }

    @Test(
        "generated histories of placements and outcomes (some stale): a copy leads only at its placement's epoch, only after its epoch entry and, past epoch 1, a copy's pull and a catch-up, all within one placement; it stops leading before anything else when the placement moves on"
    )
    func histories() {
        var random = SeededGenerator(seed: 5_308)
        let nodes = ["n1", "n2", "n3", "n4"]
        var led = 0
        for _ in 0..<400 {
            var copy = CopyLifecycle(store: "s", node: "n1")
            var epoch: Int64 = 1
            var placement: Placement?
            var leading = false
            // What the work reported since the current generation began.
            var steps: Set<String> = []
            var stepsGeneration = 0
            var pending: [(Effect, Int)] = []
            for _ in 0..<60 {
                var effects: [Effect] = []
                switch Int.random(in: 0..<10, using: &random) {
                case 0, 1:
                    // The placement changes.
                    if Int.random(in: 0..<6, using: &random) == 0 {
                        placement = nil
                    } else {
                        epoch += Int64.random(in: 0...1, using: &random)
                        var holders = Array(nodes.shuffled(using: &random).prefix(3))
                        // This node leads half the time.
                        if Bool.random(using: &random) { holders = ["n1"] + holders.filter { $0 != "n1" }.prefix(2) }
                        placement = Placement(
                            primary: holders.first!,
                            replicas: Array(holders.dropFirst()),
                            epoch: epoch
                        )
                    }
                    effects = copy.place(placement, predecessorGone: Bool.random(using: &random))
                case 2:
                    if Bool.random(using: &random) { effects = copy.stop() } else { copy.restart() }
                default:
                    // Some outcome of some work, current or stale, in any order.
                    guard !pending.isEmpty else { continue }
                    let (effect, generation) = pending.remove(at: Int.random(in: 0..<pending.count, using: &random))
                    let event: CopyLifecycle.Event
                    switch effect {
                    case .waitLockDelay: event = .lockDelayPassed
                    case .beginEpoch:
                        event = [.epochBegun(seq: 5), .failed, .higherEpochHeld].randomElement(using: &random)!
                    case .awaitCopy: event = Bool.random(using: &random) ? .epochPulled : .failed
                    case .catchUp: event = Bool.random(using: &random) ? .caughtUp : .failed
                    case .follow: event = .caughtUpAndReported
                    case .retry(let inner, _):
                        pending.append((inner, generation))
                        continue
                    default: continue
                    }
                    if generation == copy.generation { steps.insert("\(event)".prefix { $0 != "(" }.description) }
                    effects = copy.handle(event, generation: generation)
                }
                if copy.generation != stepsGeneration {
                    steps = []
                    stepsGeneration = copy.generation
                }
                for effect in effects {
                    switch effect {
                    case .lead(let at, let promoted):
                        #expect(!leading, "lead twice")
                        leading = true
                        led += 1
                        #expect(placement?.primary == "n1" && placement?.epoch == at, "leads without the placement")
                        #expect(steps.contains("epochBegun"), "leads before its epoch entry")
                        if at > 1 {
                            #expect(promoted && steps.contains("epochPulled") && steps.contains("caughtUp"))
                        }
                    case .stopLeading:
                        #expect(leading)
                        #expect(effects.first == .stopLeading, "writes stop before anything else")
                        leading = false
                    case .waitLockDelay(let generation), .beginEpoch(_, let generation),
                        .awaitCopy(_, let generation), .catchUp(_, let generation),
                        .follow(_, _, _, let generation):
                        #expect(generation == copy.generation)
                        pending.append((effect, generation))
                    case .retry(let inner, let generation):
                        pending.append((.retry(inner, generation: generation), generation))
                    case .drop:
                        #expect(placement?.role(of: "n1") == nil, "dropped a copy the placement names")
                    case .stopWork, .create: break
                    }
                }
                #expect(leading == (copy.phase == .leading), "the copy's phase and the writes it takes agree")
            }
        }
        #expect(led > 100, "the histories lead often enough to test it: \(led)")
    }
}
