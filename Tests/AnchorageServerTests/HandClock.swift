import Synchronization

/// A clock that moves only when a test moves it, for the node's shares
/// (``NodeConfiguration/shareClock``): turns then do not depend on how
/// fast the machine computes or how busy it is.
///
/// ```swift
/// let clock = HandClock()
/// configuration.shareClock = clock.now
/// clock.advance(by: .seconds(2))
/// ```
final class HandClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    @Sendable func now() -> ContinuousClock.Instant {
        instant.withLock { $0 }
    }

    func advance(by duration: Duration) {
        instant.withLock { $0 = $0.advanced(by: duration) }
    }
}
