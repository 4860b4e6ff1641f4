import AnchorageModel

extension HKHealthStore {
    /// Launches or wakes the companion watchOS app to create a workout
    /// session: on Linux there is no paired Apple Watch, so the completion
    /// always gets `false` and ``HKError`` `errorHealthDataUnavailable`.
    /// It is here so that code written for HealthKit compiles unchanged.
    ///
    /// ```swift
    /// store.startWatchApp(with: configuration) { started, error in
    ///     // started == false; error is HKError.errorHealthDataUnavailable
    /// }
    /// ```
    public func startWatchApp(
        with workoutConfiguration: HKWorkoutConfiguration,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        complete(completion) { throw Self.noWatch }
    }

    /// ``startWatchApp(with:completion:)`` as an async call: it always
    /// throws ``HKError`` `errorHealthDataUnavailable`, since no Apple Watch
    /// is paired with a Linux machine.
    ///
    /// ```swift
    /// do { try await store.startWatchApp(toHandle: configuration) } catch { /* no watch */ }
    /// ```
    public func startWatchApp(toHandle workoutConfiguration: HKWorkoutConfiguration) async throws {
        throw Self.noWatch
    }

    private static var noWatch: HKError {
        HKError(
            .errorHealthDataUnavailable,
            "there is no paired Apple Watch on Linux: startWatchApp cannot launch a companion app"
        )
    }
}
