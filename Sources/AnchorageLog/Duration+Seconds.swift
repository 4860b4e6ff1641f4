/// A `Duration` as the numbers other APIs take: seconds as a `Double`
/// (Foundation's `TimeInterval`), or whole nanoseconds.
///
/// ```swift
/// Date().addingTimeInterval(wait.timeInterval)
/// timer.recordNanoseconds(elapsed.nanosecondCount)
/// ```
extension Duration {
    /// The duration in seconds, fractions included.
    public var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds (rounded toward zero).
    public var nanosecondCount: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
