import Anchorage
import Synchronization

/// A ``TokenBucket`` for each principal: how much of an expensive kind of
/// work (statistics buckets) each may ask the node for, so that no one
/// client keeps a core busy however many connections it opens.
///
/// ```swift
/// let quota = PrincipalQuota(rate: 50_000, burst: 200_000, maximumWait: .seconds(10))
/// if case .proceed(let after) = quota.reserve(100_000, by: "app:com.example.app") {
///     try await clock.sleep(after)
///     quota.charge(cpuMicroseconds - 100_000, by: "app:com.example.app")  // once the cost is known
/// }
/// ```
final class PrincipalQuota: Sendable {
    /// Units a second for each principal; nil for no limit.
    let rate: Double?
    let burst: Double
    /// The longest a request waits for its turn before it is refused.
    let maximumWait: Duration
    /// The clock shares refill by and turns wait on.
    private let clock: StoreClock
    private let buckets = Mutex<[String: TokenBucket]>([:])

    /// `rate` units a second for each principal, in bursts of up to
    /// `burst`, waiting at most `maximumWait` for a turn; a `rate` of nil
    /// or 0 lets everything through.
    init(
        rate: Double?,
        burst: Double,
        maximumWait: Duration,
        clock: StoreClock = .continuous
    ) {
        self.rate = rate.flatMap { $0 > 0 ? $0 : nil }
        self.burst = max(1, burst)
        self.maximumWait = maximumWait
        self.clock = clock
    }

    /// Gives `cost` units of `principal`'s share a turn (see
    /// ``TokenBucket``): at once, or after a wait of at most ``maximumWait``.
    func reserve(_ cost: Double, by principal: String) -> TokenBucket.Decision {
        guard let rate else { return .proceed(after: .zero) }
        let now = clock.now()
        return buckets.withLock { buckets in
            // Full buckets are forgotten now and then: they are the same as new ones.
            if buckets.count >= 1_024 { buckets = buckets.filter { !$0.value.isFull(now: now) } }
            return buckets[principal, default: TokenBucket(rate: rate, burst: burst, now: now)]
                .reserve(cost, now: now, maximumWait: maximumWait)
        }
    }

    /// Waits for `cost` units of `principal`'s turn. A request refused one
    /// waits as long as one may and is then answered `429 rateLimited`
    /// with `Retry-After`, so that a client ignoring `Retry-After` cannot
    /// turn refusals into a flood; `what` names the share in the message
    /// ("statistics buckets").
    func waitForTurn(_ cost: Double, by principal: String, of what: String, advice: String) async throws {
        switch reserve(cost, by: principal) {
        case .proceed(let delay):
            if delay > .zero { try await clock.sleep(delay) }
        case .refuse(let retryAfter):
            try await clock.sleep(maximumWait)
            throw APIError.rateLimited(
                "more \(what) than this token's share (\(Int(rate ?? 0)) a second, "
                    + "waiting up to \(maximumWait.components.seconds) s for a turn); "
                    + "ask again after Retry-After seconds, or \(advice)",
                retryAfter: retryAfter - maximumWait
            )
        }
    }

    /// Takes `extra` units more from `principal`'s share for work already
    /// let through, once its whole cost is known.
    func charge(_ extra: Double, by principal: String) {
        guard let rate, extra > 0 else { return }
        let now = clock.now()
        buckets.withLock { buckets in
            buckets[principal, default: TokenBucket(rate: rate, burst: burst, now: now)].charge(extra, now: now)
        }
    }
}
