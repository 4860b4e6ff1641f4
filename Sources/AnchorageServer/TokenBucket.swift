import AnchorageLog

/// A rate, as a state machine: `rate` units a second on average, in bursts
/// of up to `burst` units. Pure (the time is an argument), so it is tested
/// without clocks or sockets.
///
/// Work is let through in turns: a request whose bucket holds anything goes
/// at once and takes its whole cost, even into debt; later ones are given a
/// turn once the debt before them is repaid at `rate`, if that is within
/// the longest wait allowed, and are refused otherwise (nothing taken). So
/// one request as large as one may ask for always passes a full bucket, and
/// a client that keeps asking gets `rate` units a second, however it slices
/// them and however many connections it opens.
///
/// ```swift
/// var bucket = TokenBucket(rate: 50_000, burst: 200_000, now: .now)
/// switch bucket.reserve(100_000, now: .now, maximumWait: .seconds(10)) {
/// case .proceed(let after): try await Task.sleep(for: after)
/// case .refuse(let retryAfter): print("try again in", retryAfter)
/// }
/// ```
struct TokenBucket: Sendable, Equatable {
    /// What ``reserve(_:now:maximumWait:)`` decides.
    enum Decision: Equatable {
        /// Go ahead after this long (zero: at once); the cost is taken.
        case proceed(after: Duration)
        /// Refused: the turn would come only after this long, more than the
        /// longest wait. Nothing was taken.
        case refuse(retryAfter: Duration)
    }

    /// Units added a second.
    let rate: Double
    /// The most the bucket holds.
    let burst: Double
    /// What the bucket holds; below zero, the debt of the turns given.
    private(set) var level: Double
    private var updated: Duration

    /// A full bucket.
    init(rate: Double, burst: Double, now: Duration) {
        precondition(rate > 0 && burst > 0, "a token bucket needs a positive rate and burst")
        self.rate = rate
        self.burst = burst
        level = burst
        updated = now
    }

    /// Gives `cost` units a turn: at once if the bucket holds anything,
    /// else when its debt is repaid, if that is within `maximumWait`.
    mutating func reserve(_ cost: Double, now: Duration, maximumWait: Duration) -> Decision {
        refill(now: now)
        // Whole milliseconds, rounded up, so that waiting that long is enough.
        let wait: Duration =
            level > 0 ? .zero : .milliseconds(Int64(min((-level / rate * 1_000).rounded(.up) + 1, 8.64e10)))
        guard wait <= maximumWait else { return .refuse(retryAfter: wait) }
        level -= max(0, cost)
        return .proceed(after: wait)
    }

    /// Takes `extra` units more for work already let through, once its
    /// whole cost is known: later turns come that much later.
    mutating func charge(_ extra: Double, now: Duration) {
        refill(now: now)
        level -= max(0, extra)
    }

    /// Whether the bucket is full at `now`, so that forgetting it changes nothing.
    func isFull(now: Duration) -> Bool {
        var copy = self
        copy.refill(now: now)
        return copy.level >= burst
    }

    private mutating func refill(now: Duration) {
        guard now > updated else { return }
        let elapsed = now - updated
        level = min(burst, level + elapsed.timeInterval * rate)
        updated = now
    }
}
