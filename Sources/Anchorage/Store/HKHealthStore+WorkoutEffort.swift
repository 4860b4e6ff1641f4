import AnchorageModel

extension HKHealthStore {
    /// Relates a workout effort score sample to a saved workout, or to one
    /// of its activities; a sample not saved yet is saved by the same batch.
    ///
    /// ```swift
    /// let effort = HKQuantitySample(
    ///     type: HKQuantityType(.workoutEffortScore), quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: 7),
    ///     start: run.startDate, end: run.endDate)
    /// try await store.relateWorkoutEffortSample(effort, with: run, activity: nil)
    /// let scores = HKQuery.predicateForWorkoutEffortSamplesRelated(workout: run, activity: nil)
    /// ```
    ///
    /// Relating the pair again (with another activity) replaces the
    /// relation; of two peers' changes to one pair the latest wins.
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument` (`OBJ-24`) for a sample
    ///   that is not a `workoutEffortScore` or `estimatedWorkoutEffortScore`
    ///   quantity sample, a workout that is not saved, or an activity that
    ///   is not one of the workout's; `errorAuthorizationDenied` without
    ///   permission to share workouts and the sample's type.
    public func relateWorkoutEffortSample(
        _ sample: HKSample,
        with workout: HKWorkout,
        activity: HKWorkoutActivity?
    ) async throws {
        try Self.checkEffort(sample, workout: workout, activity: activity)
        try await openEngine().save(
            [sample],
            caller: caller,
            linkingTo: .effort(workout: workout.uuid, activity: activity?.uuid)
        )
    }

    /// Relates a workout effort score sample to a workout and calls
    /// `completion` with the outcome.
    public func relateWorkoutEffortSample(
        _ sample: HKSample,
        with workout: HKWorkout,
        activity: HKWorkoutActivity?,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        complete(completion) { try await self.relateWorkoutEffortSample(sample, with: workout, activity: activity) }
    }

    /// Ends the relation of a saved workout effort score sample to a
    /// workout (whatever activity it was related to). A sample that is not
    /// related is left as it is.
    ///
    /// ```swift
    /// try await store.unrelateWorkoutEffortSample(effort, from: run, activity: nil)
    /// ```
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument` (`OBJ-24`) for a sample
    ///   or workout that is not saved, or an activity that is not one of the
    ///   workout's; `errorAuthorizationDenied` without permission to share.
    public func unrelateWorkoutEffortSample(
        _ sample: HKSample,
        from workout: HKWorkout,
        activity: HKWorkoutActivity?
    ) async throws {
        try Self.checkEffort(sample, workout: workout, activity: activity)
        try await openEngine().unrelateEffort(sample: sample.uuid, workout: workout.uuid, caller: caller)
    }

    /// Ends the relation of a workout effort score sample to a workout and
    /// calls `completion` with the outcome.
    public func unrelateWorkoutEffortSample(
        _ sample: HKSample,
        from workout: HKWorkout,
        activity: HKWorkoutActivity?,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        complete(completion) { try await self.unrelateWorkoutEffortSample(sample, from: workout, activity: activity) }
    }

    /// The effort score types HealthKit relates to workouts.
    static let effortTypes: Set<HKQuantityTypeIdentifier> = [.workoutEffortScore, .estimatedWorkoutEffortScore]

    private static func checkEffort(
        _ sample: HKSample,
        workout: HKWorkout,
        activity: HKWorkoutActivity?
    ) throws(HKError) {
        guard let quantitySample = sample as? HKQuantitySample,
            effortTypes.contains(HKQuantityTypeIdentifier(rawValue: quantitySample.quantityType.identifier))
        else {
            throw HKError(
                .errorInvalidArgument,
                rule: "OBJ-24",
                "only workoutEffortScore and estimatedWorkoutEffortScore samples relate to workouts, not \(sample.sampleType.identifier)"
            )
        }
        if let activity, !workout.workoutActivities.contains(where: { $0.uuid == activity.uuid }) {
            throw HKError(
                .errorInvalidArgument,
                rule: "OBJ-24",
                "the activity \(activity.uuid) is not one of the workout's activities"
            )
        }
    }
}
