public import Foundation

/// The one clock every module's timers and timestamps count on: a
/// monotonic reading, a way to wait, and the wall time. Stores, logs,
/// replication, nodes and the fleet take it injected; tests substitute a
/// clock they move by hand, so nothing depends on how fast the machine is.
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
    /// The wall time, for what is recorded with a date (a log entry's
    /// timestamp, an access record); it may jump.
    public var date: @Sendable () -> Date

    public init(
        now: @escaping @Sendable () -> Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        date: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = now
        self.sleep = sleep
        self.date = date
    }

    /// A store clock reading and sleeping on `clock`.
    public init<C: Clock>(_ clock: C, date: @escaping @Sendable () -> Date = { Date() }) where C.Duration == Duration {
        let origin = clock.now
        self.init(now: { origin.duration(to: clock.now) }, sleep: { try await clock.sleep(for: $0) }, date: date)
    }

    /// The system's monotonic clock and wall time.
    public static let continuous = StoreClock(ContinuousClock())

    /// This clock, telling `date` as the wall time.
    ///
    /// ```swift
    /// configuration.clock = .continuous.telling { Date(timeIntervalSince1970: 1_700_000_000) }
    /// ```
    public func telling(date: @escaping @Sendable () -> Date) -> StoreClock {
        StoreClock(now: now, sleep: sleep, date: date)
    }

    /// A reading of this clock as an instant.
    public var instant: OffsetInstant { OffsetInstant(offset: now()) }
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
