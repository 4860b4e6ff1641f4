import Anchorage
import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import AnchorageServer

@Suite("TokenBucket and PrincipalQuota: each principal's share of expensive work")
struct TokenBucketTests {
    /// A reading `seconds` after the clock's origin.
    static func at(_ seconds: Double) -> Duration {
        .milliseconds(Int64(seconds * 1_000))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    @Test("a full bucket lets a request larger than the burst through; later ones take turns; beyond the wait, refused")
    func turns() {
        var bucket = TokenBucket(rate: 1_000, burst: 4_000, now: Self.at(0))
        let wait = Duration.seconds(3)
        #expect(bucket.reserve(10_000, now: Self.at(0), maximumWait: wait) == .proceed(after: .zero))
        // 6,000 in debt: the next turn comes after 6 s, more than 3: refused, nothing taken.
        guard case .refuse(let retry) = bucket.reserve(1, now: Self.at(0), maximumWait: wait) else {
            Issue.record("a request beyond the wait was let through")
            return
        }
        #expect(abs(Self.seconds(retry) - 6) < 0.01)
        #expect(bucket.level == -6_000, "a refusal takes nothing")
        // At 4 s the debt is 2,000: a turn in 2 s; the one after in 2 + 0.5 s.
        #expect(bucket.reserve(500, now: Self.at(4), maximumWait: wait) == .proceed(after: .milliseconds(2_001)))
        #expect(bucket.reserve(500, now: Self.at(4), maximumWait: wait) == .proceed(after: .milliseconds(2_501)))
        // Then 3,000 in debt: a turn after 3.001 s, past the wait.
        guard case .refuse = bucket.reserve(1, now: Self.at(4), maximumWait: wait) else {
            Issue.record("the debt grew past the wait")
            return
        }
        // Long idle: full again, never more than the burst.
        #expect(bucket.isFull(now: Self.at(100)))
        #expect(bucket.reserve(4_000, now: Self.at(100), maximumWait: .zero) == .proceed(after: .zero))
        #expect(bucket.reserve(1, now: Self.at(100), maximumWait: .zero) != .proceed(after: .zero))
    }

    @Test(
        "property: on random request streams, what is let through by any time is at most burst + rate × time + one request, and a refusal changes nothing",
        arguments: [1, 2, 3]
    )
    func bounded(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let rate = Double(random.next() % 5_000 + 100)
        let burst = Double(random.next() % 20_000 + 1)
        let wait = Duration.milliseconds(Int64(random.next() % 5_000))
        var bucket = TokenBucket(rate: rate, burst: burst, now: Self.at(0))
        var now = 0.0
        var turns: [(time: Double, cost: Double)] = []
        var largest = 0.0
        for _ in 0..<2_000 {
            now += Double(random.next() % 1_000) / 1_000 * (random.next() % 4 == 0 ? 5 : 0.2)
            let cost = Double(random.next() % 100_000)
            let before = bucket
            switch bucket.reserve(cost, now: Self.at(now), maximumWait: wait) {
            case .proceed(let after):
                #expect(after <= wait)
                turns.append((now + Self.seconds(after), cost))
                largest = max(largest, cost)
            case .refuse(let retryAfter):
                #expect(retryAfter > wait)
                var unchanged = before
                _ = unchanged.reserve(0, now: Self.at(now), maximumWait: .zero)
                var refused = bucket
                _ = refused.reserve(0, now: Self.at(now), maximumWait: .zero)
                #expect(unchanged == refused, "a refusal takes nothing")
            }
        }
        // Turns are given in order, and none sooner than the rate allows.
        #expect(zip(turns, turns.dropFirst()).allSatisfy { $0.time <= $1.time + 1e-9 })
        var admitted = 0.0
        for turn in turns {
            admitted += turn.cost
            #expect(admitted <= burst + rate * turn.time + largest + 1e-6)
        }
    }

    @Test("principals have buckets of their own; no rate lets everything through; the clock is the one given")
    func principals() {
        let clock = TestClock()
        let quota = PrincipalQuota(rate: 100, burst: 100, maximumWait: .seconds(1), clock: StoreClock(clock))
        #expect(quota.reserve(1_000, by: "app:a") == .proceed(after: .zero))
        #expect(quota.reserve(1, by: "app:b") == .proceed(after: .zero), "another app's share is untouched")
        guard case .refuse = quota.reserve(1, by: "app:a") else {
            Issue.record("app a was let past its share")
            return
        }
        clock.advance(by: .seconds(9))
        #expect(quota.reserve(1, by: "app:a") == .proceed(after: .milliseconds(1)))
        let unlimited = PrincipalQuota(rate: 0, burst: 1, maximumWait: .zero)
        for _ in 0..<100 { #expect(unlimited.reserve(1e12, by: "owner") == .proceed(after: .zero)) }
    }
}
