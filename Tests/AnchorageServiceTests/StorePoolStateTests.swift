import AnchorageTestRun
import AnchorageTesting
import Testing

@testable import AnchorageService

/// The pool's decisions over random histories, against a reference that
/// sorts every idle store by last use (what the pool did before it kept
/// them in a heap).
@Suite("A node's open stores: the decisions alone")
struct StorePoolStateTests {
    typealias State = StorePoolState<Int, Int>

    /// The stores a sort of every idle store closes to make room for one
    /// more, or `nil` when there are not enough idle stores.
    static func reference(_ state: State) -> [String]? {
        let needed = state.slots.count - state.limits.capacity + 1
        guard needed > 0 else { return [] }
        let idle = state.slots.compactMap { name, slot -> (Int, String)? in
            guard case .open(_, 0, let lastUsed) = slot else { return nil }
            return (lastUsed, name)
        }
        guard idle.count >= needed else { return nil }
        return idle.sorted { $0 < $1 }.prefix(needed).map(\.1)
    }

    @Test(
        "making room closes the least recently used idle stores, ties by name, as a sort of them all would, over random histories with many equal instants",
        .ownThread,
        arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64]
    )
    func makeRoomMatchesSort(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var state = State(limits: .init(capacity: 4, maximumOpening: 2))
        let names = (0..<9).map { "s\($0)" }
        var now = 0
        var ticket = 0
        var opening: [String] = []
        var closing: [String] = []
        /// Holds taken, by store.
        var held: [String: Int] = [:]
        var decisions = 0

        func take(_ name: String, _ decision: State.Acquired, expected: [String]?) {
            switch decision {
            case .use: held[name, default: 0] += 1
            case .open(let closed):
                if !closed.isEmpty { decisions += 1 }
                #expect(closed.map(\.name) == expected, "seed \(seed): the stores closed for \(name)")
                #expect(Set(closed.map(\.name)).count == closed.count, "a store is closed once")
                opening.append(name)
                closing += closed.map(\.name)
            case .wait, .gone: break
            }
        }
        /// Lets waiting requests go ahead, each checked against the reference.
        func admit() {
            while true {
                let expected = Self.reference(state)
                guard let next = state.admitNext(now: now) else { return }
                if case .open = next.decision {
                    take(next.name, next.decision, expected: expected)
                } else {
                    take(next.name, next.decision, expected: nil)
                }
            }
        }

        for _ in 0..<3_000 {
            if Int.random(in: 0..<3, using: &random) == 0 { now += 1 }
            switch Int.random(in: 0..<7, using: &random) {
            case 0, 1:
                let name = names.randomElement(using: &random)!
                let wouldOpen = state.slots[name] == nil && state.queue.isEmpty
                let expected = wouldOpen ? Self.reference(state) : nil
                ticket += 1
                let decision = state.acquire(name, ticket: ticket, now: now)
                take(name, decision, expected: expected)
            case 2 where !opening.isEmpty:
                let name = opening.remove(at: Int.random(in: 0..<opening.count, using: &random))
                // The waiters hold it too; they then let go one by one below.
                held[name, default: 0] += 1 + state.opened(name, 7, now: now).count
            case 3...5 where !held.isEmpty:
                let name = held.keys.sorted().randomElement(using: &random)!
                _ = state.release(name, now: now)
                held[name]! -= 1
                if held[name] == 0 { held[name] = nil }
                admit()
            case 6 where !closing.isEmpty:
                state.closed(closing.removeFirst())
                admit()
            default:
                if Int.random(in: 0..<8, using: &random) == 0 {
                    closing += state.closeIdle(before: now - 3).map(\.name)
                    admit()
                }
            }
            // Those handed out to be closed are closed before the new ones open.
            let kept = state.slots.values.filter { if case .closing = $0 { false } else { true } }.count
            #expect(kept <= state.limits.capacity, "seed \(seed): at most the capacity open")
        }
        #expect(decisions > 100, "seed \(seed): \(decisions) stores opened in place of others")
    }
}
