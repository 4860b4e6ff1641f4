import AnchorageLog

/// Exponential back-off with jitter between failed attempts: the delay
/// doubles from `base` up to `maximum`, and each wait is drawn at random
/// from its upper `jitter` fraction, so peers that failed together do not
/// retry together.
///
/// ```swift
/// var backoff = Backoff()
/// var random = SystemRandomNumberGenerator()
/// try await Task.sleep(for: backoff.next(using: &random))
/// backoff.reset()   // after a success
/// ```
public struct Backoff: Sendable, Hashable {
    /// The first delay.
    public var base: Duration
    /// The longest delay.
    public var maximum: Duration
    /// The fraction of each delay drawn at random (0: none, 1: all).
    public var jitter: Double
    /// Failures since the last success.
    public private(set) var failures = 0

    public init(base: Duration = .milliseconds(200), maximum: Duration = .seconds(30), jitter: Double = 0.5) {
        self.base = base
        self.maximum = maximum
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The delay before the next attempt; counts a failure.
    public mutating func next(using random: inout some RandomNumberGenerator) -> Duration {
        let exponent = min(failures, 30)
        failures += 1
        let ceiling = min(base * (1 << exponent), maximum)
        let seconds = ceiling.timeInterval
        let low = seconds * (1 - jitter)
        let drawn = jitter == 0 ? seconds : Double.random(in: low...seconds, using: &random)
        return .nanoseconds(Int64((drawn * 1e9).rounded()))
    }

    /// Starts again from `base` after a success.
    public mutating func reset() {
        failures = 0
    }
}
