import AnchorageTestRun
import Testing

@testable import AppleHealthImport

/// The occurrence window's table against a plain model: a dictionary of
/// counts and a queue of keys in first-seen order.
// Loops of many thousand operations: on a thread of their own, not the pool's.
@Suite("The occurrence window's table", .ownThread)
struct OccurrenceWindowTests {
    /// What the window must answer: how many times `key` came before, among
    /// the last `capacity` distinct contents.
    struct Model {
        let capacity: Int
        var counts: [OccurrenceWindow.Key: UInt32] = [:]
        var order: [OccurrenceWindow.Key] = []
        var first = 0

        mutating func occurrence(of key: OccurrenceWindow.Key) -> UInt32 {
            if let seen = counts[key] {
                counts[key] = seen + 1
                return seen
            }
            if order.count - first == capacity {
                counts[order[first]] = nil
                first += 1
            }
            order.append(key)
            counts[key] = 1
            return 0
        }
    }

    /// Feeds the same generated keys to the window and the model.
    static func compare(capacity: Int, steps: Int, key: (inout SystemRandomNumberGenerator) -> OccurrenceWindow.Key) {
        var window = OccurrenceWindow(capacity: capacity)
        var model = Model(capacity: capacity)
        var random = SystemRandomNumberGenerator()
        var mismatches = 0
        for _ in 0..<steps {
            let next = key(&random)
            if window.occurrence(of: next) != model.occurrence(of: next) { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(mismatches) of \(steps) answers differ from the model")
    }

    @Test("keys whose probes all start at one slot: removals keep every other key reachable")
    func collidingHomes() {
        // The low bits of `high` pick the slot: all zero, one probe run.
        Self.compare(capacity: 24, steps: 20_000) { random in
            OccurrenceWindow.Key(high: UInt64.random(in: 0..<60, using: &random) << 40, low: 1)
        }
        // Two homes, with runs that wrap around the table's end.
        Self.compare(capacity: 300, steps: 20_000) { random in
            let high = UInt64.random(in: 0..<500, using: &random)
            return OccurrenceWindow.Key(high: (high << 40) | (high % 2 == 0 ? 1_023 : 1_020), low: high)
        }
    }

    @Test("a window larger than the first table grows it and keeps its counts")
    func growing() {
        Self.compare(capacity: 5_000, steps: 60_000) { random in
            OccurrenceWindow.Key(high: UInt64.random(in: 0..<8_000, using: &random), low: 0)
        }
        Self.compare(capacity: 5_000, steps: 60_000) { random in
            OccurrenceWindow.Key(high: UInt64.random(in: 0..<8_000, using: &random) &* 0x9E37_79B9_7F4A_7C15, low: 2)
        }
    }

    @Test("keys that differ only in their low half are distinct contents")
    func lowHalf() {
        Self.compare(capacity: 50, steps: 5_000) { random in
            OccurrenceWindow.Key(high: 7, low: UInt64.random(in: 0..<80, using: &random))
        }
    }
}
