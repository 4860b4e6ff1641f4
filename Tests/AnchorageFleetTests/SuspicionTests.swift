import AnchorageCore
import AnchorageTesting
import Testing

@testable import AnchorageFleet

@Suite("Suspicion: a followed node reported unreachable from probes, on a hand clock")
struct SuspicionTests {
    /// Instants of the node's clock (``StoreClock``), as ``FleetProbe`` reads them.
    typealias Machine = Suspicion<OffsetInstant>
    let start = OffsetInstant(offset: .seconds(1_000))

    func at(_ milliseconds: Int) -> OffsetInstant { start + .milliseconds(milliseconds) }

    @Test("a killed node (every probe refused at once, one each 250 ms) is reported after 1 s of failures, once")
    func killed() {
        var machine = Machine(settings: .init(after: .seconds(1), failures: 2))
        #expect(machine.follow(["n1", "n2"]).isEmpty)
        var actions: [(Int, Machine.Action)] = []
        for tick in stride(from: 0, through: 2_000, by: 250) {
            if let action = machine.record("n1", answered: false, sent: at(tick)) { actions.append((tick, action)) }
            #expect(machine.record("n2", answered: true, sent: at(tick)) == nil)
        }
        #expect(actions.map(\.0) == [1_000])
        #expect(actions.map(\.1) == [.report("n1")])
        #expect(machine.reported == ["n1"])
    }

    @Test("a frozen node (each probe times out after 1 s, the next sent then) is reported at its second timeout")
    func frozen() {
        var machine = Machine(settings: .init(after: .seconds(1), failures: 2))
        _ = machine.follow(["n1"])
        // Probes sent at 0 and 1,000 ms, each failing when its timeout ends.
        #expect(machine.record("n1", answered: false, sent: at(0)) == nil)
        #expect(machine.record("n1", answered: false, sent: at(1_000)) == .report("n1"))
    }

    @Test("one failure, then an answer: nothing reported; failures must be in a row and span the bound")
    func brief() {
        var machine = Machine(settings: .init(after: .seconds(1), failures: 2))
        _ = machine.follow(["n1"])
        for tick in [0, 250, 500, 750] { #expect(machine.record("n1", answered: false, sent: at(tick)) == nil) }
        #expect(machine.record("n1", answered: true, sent: at(1_000)) == nil)
        // The count starts again: 1,250 → 2,000 is 750 ms.
        for tick in [1_250, 1_500, 1_750, 2_000] {
            #expect(machine.record("n1", answered: false, sent: at(tick)) == nil)
        }
        #expect(machine.record("n1", answered: false, sent: at(2_250)) == .report("n1"))
        // Many failures in a short span are not enough either.
        var quick = Machine(settings: .init(after: .seconds(1), failures: 2))
        _ = quick.follow(["n1"])
        for tick in 0..<100 { #expect(quick.record("n1", answered: false, sent: at(tick)) == nil) }
    }

    @Test("a reported node answering again is withdrawn; one no longer followed is withdrawn; others are not")
    func withdrawn() {
        var machine = Machine(settings: .init(after: .milliseconds(500), failures: 2))
        _ = machine.follow(["n1", "n2", "n3"])
        for node in ["n1", "n2"] {
            _ = machine.record(node, answered: false, sent: at(0))
            #expect(machine.record(node, answered: false, sent: at(500)) == .report(node))
        }
        #expect(machine.record("n1", answered: true, sent: at(600)) == .withdraw("n1"))
        #expect(machine.record("n1", answered: true, sent: at(700)) == nil)
        #expect(machine.follow(["n1", "n3"]) == [.withdraw("n2")], "n2 no longer followed")
        #expect(machine.follow(["n1"]).isEmpty, "n3 was never reported")
        #expect(machine.record("n2", answered: false, sent: at(900)) == nil, "not followed: nothing")
        #expect(machine.reported.isEmpty)
    }

    @Test("reports forgotten (the lease that held them ended) are made again at the next failure")
    func forgotten() {
        var machine = Machine(settings: .init(after: .milliseconds(500), failures: 2))
        _ = machine.follow(["n1"])
        _ = machine.record("n1", answered: false, sent: at(0))
        #expect(machine.record("n1", answered: false, sent: at(500)) == .report("n1"))
        #expect(machine.record("n1", answered: false, sent: at(750)) == nil, "once")
        machine.forgetReports()
        #expect(machine.record("n1", answered: false, sent: at(1_000)) == .report("n1"))
    }

    @Test("random probe histories: reported exactly when the last failures in a row span the bound and number enough")
    func properties() {
        var random = SeededGenerator(seed: 5_307)
        for _ in 0..<500 {
            let settings = Suspicion<OffsetInstant>.Settings(
                after: .milliseconds(Int.random(in: 0...1_500, using: &random)),
                failures: Int.random(in: 1...4, using: &random)
            )
            var machine = Machine(settings: settings)
            _ = machine.follow(["n"])
            var tick = 0
            var run: [Int] = []
            var reported = false
            for _ in 0..<40 {
                tick += Int.random(in: 0...600, using: &random)
                let answered = Int.random(in: 0..<4, using: &random) == 0
                let action = machine.record("n", answered: answered, sent: at(tick))
                if answered {
                    #expect(action == (reported ? .withdraw("n") : nil))
                    run = []
                    reported = false
                    continue
                }
                run.append(tick)
                let due = run.count >= settings.failures && .milliseconds(tick - run[0]) >= settings.after
                #expect(action == (due && !reported ? .report("n") : nil))
                if due { reported = true }
                #expect(machine.reported == (reported ? ["n"] : []))
            }
        }
    }
}
