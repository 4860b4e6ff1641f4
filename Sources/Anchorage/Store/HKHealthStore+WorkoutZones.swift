public import AnchorageModel

extension HKHealthStore {
    /// The person's preferred zones for `quantityType` (heart rate or
    /// cycling power), or `nil` when the person has none.
    ///
    /// On a phone the system computes the person's zones (or the person
    /// sets them in Health Settings) and keeps them outside the health
    /// data. An Anchorage store holds only health data: its log has no
    /// entry that records a person's zones, so no store knows any, and the
    /// answer is `nil`, which is HealthKit's answer for a person without
    /// zones. Apps that have zones pass them where they are used (an
    /// ``HKWorkoutZoneConfiguration`` made with
    /// ``HKWorkoutZoneConfiguration/init(quantityType:zoneBoundaries:)``).
    ///
    /// ```swift
    /// let zones = try await store.preferredWorkoutZoneConfiguration(for: HKQuantityType(.heartRate))  // nil
    /// ```
    ///
    /// - Throws: ``HKError`` `WZ-1` (`errorInvalidArgument`) for a type
    ///   other than heart rate and cycling power; the store's opening
    ///   errors.
    public func preferredWorkoutZoneConfiguration(
        for quantityType: HKQuantityType
    ) async throws -> HKWorkoutZoneConfiguration? {
        let supported: Set<HKQuantityTypeIdentifier> = [.heartRate, .cyclingPower]
        guard supported.contains(HKQuantityTypeIdentifier(rawValue: quantityType.identifier)) else {
            throw HKError.invalid(
                "WZ-1",
                "workout zones exist for heart rate and cycling power, not \(quantityType.identifier)"
            )
        }
        _ = try await openEngine()
        return nil
    }
}
