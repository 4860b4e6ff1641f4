public import AnchorageModel

/// The time a store's timers count on: a monotonic reading and a way to
/// wait. Tests substitute a clock they move by hand, so nothing depends on
/// how fast the machine is.
///
/// ```swift
/// var configuration = HKHealthStore.Configuration()
/// configuration.clock = StoreClock(testClock)   // AnchorageTesting's TestClock
/// ```
public struct StoreClock: Sendable {
    /// Time since an arbitrary origin; it never goes back.
    public var now: @Sendable () -> Duration
    /// Returns after `duration` has passed on this clock; throws when the
    /// task is cancelled.
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// A store clock reading and sleeping on `clock`.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        self.init(now: { origin.duration(to: clock.now) }, sleep: { try await clock.sleep(for: $0) })
    }

    /// The system's monotonic clock.
    public static let continuous = StoreClock(ContinuousClock())
}

extension StoreClock {
    /// This clock as a Swift `Clock`, for the APIs that take one (timer
    /// sequences, time-outs): it reads and sleeps on this clock, so a test
    /// clock moved by hand moves them too.
    ///
    /// ```swift
    /// for await _ in AsyncTimerSequence(interval: .seconds(15), clock: configuration.clock.timeline) { … }
    /// ```
    public var timeline: Timeline { Timeline(clock: self) }

    /// A ``StoreClock`` as a `Clock`.
    public struct Timeline: Clock, Sendable {
        /// A reading of the clock: the time since its origin.
        public typealias Instant = OffsetInstant

        let clock: StoreClock

        public var now: Instant { Instant(offset: clock.now()) }

        public var minimumResolution: Duration { .nanoseconds(1) }

        public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
            let wait = deadline.offset - clock.now()
            if wait > .zero {
                try await clock.sleep(wait)
            } else {
                try Task.checkCancellation()
            }
        }
    }
}
