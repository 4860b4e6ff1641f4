import Synchronization

/// A value that tasks and callbacks (a query's handler) share, behind a
/// lock.
///
/// ```swift
/// let seen = LockedBox<[Double]>([])
/// query = HKQuantitySeriesSampleQuery(...) { _, quantity, _, _, _, _ in seen.mutate { $0.append(1) } }
/// print(seen.value)
/// ```
public final class LockedBox<Value: Sendable>: Sendable {
    private let stored: Mutex<Value>

    public init(_ value: Value) { stored = Mutex(value) }

    /// The value now.
    public var value: Value { stored.withLock { $0 } }

    /// Changes the value in place.
    public func mutate(_ change: (inout Value) -> Void) { stored.withLock { change(&$0) } }
}
