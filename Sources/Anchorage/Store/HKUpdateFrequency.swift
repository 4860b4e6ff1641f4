import AnchorageModel

/// How often background delivery may call an app's observer queries for a
/// type: at once after each change, or at most once an hour, day or week,
/// with everything that changed since (see
/// ``HKHealthStore/enableBackgroundDelivery(for:frequency:withCompletion:)``).
public enum HKUpdateFrequency: Int, Sendable, Hashable, Codable, CaseIterable {
    case immediate = 1
    case hourly = 2
    case daily = 3
    case weekly = 4

    /// The least time between two deliveries.
    public var minimumInterval: Duration {
        switch self {
        case .immediate: .zero
        case .hourly: .seconds(3_600)
        case .daily: .seconds(86_400)
        case .weekly: .seconds(604_800)
        }
    }
}
