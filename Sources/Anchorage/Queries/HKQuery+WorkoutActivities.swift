import AnchorageModel

extension HKQuery {
    // MARK: Workouts by their statistics and activities (PRED-13)

    /// Workouts whose recorded sum of `quantityType` compares so with
    /// `sumQuantity`; workouts without that statistic never match.
    ///
    /// ```swift
    /// let long = HKQuery.predicateForWorkouts(
    ///     operatorType: .greaterThan, quantityType: HKQuantityType(.distanceWalkingRunning),
    ///     sumQuantity: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 20))
    /// ```
    ///
    /// Stops the program when the quantity's unit does not fit the type, as
    /// HealthKit does.
    public static func predicateForWorkouts(
        operatorType: ComparisonOperator,
        quantityType: HKQuantityType,
        sumQuantity: HKQuantity
    ) -> NSPredicate {
        statisticPredicate(workouts: true, quantityType, .sum, operatorType, sumQuantity)
    }

    /// Workouts whose recorded average of `quantityType` compares so with
    /// `averageQuantity`.
    public static func predicateForWorkouts(
        operatorType: ComparisonOperator,
        quantityType: HKQuantityType,
        averageQuantity: HKQuantity
    ) -> NSPredicate {
        statisticPredicate(workouts: true, quantityType, .average, operatorType, averageQuantity)
    }

    /// Workouts whose recorded minimum of `quantityType` compares so with
    /// `minimumQuantity`.
    public static func predicateForWorkouts(
        operatorType: ComparisonOperator,
        quantityType: HKQuantityType,
        minimumQuantity: HKQuantity
    ) -> NSPredicate {
        statisticPredicate(workouts: true, quantityType, .minimum, operatorType, minimumQuantity)
    }

    /// Workouts whose recorded maximum of `quantityType` compares so with
    /// `maximumQuantity`.
    public static func predicateForWorkouts(
        operatorType: ComparisonOperator,
        quantityType: HKQuantityType,
        maximumQuantity: HKQuantity
    ) -> NSPredicate {
        statisticPredicate(workouts: true, quantityType, .maximum, operatorType, maximumQuantity)
    }

    /// Workouts with at least one activity matching `activityPredicate`,
    /// made with the `predicateForWorkoutActivities…` functions (and
    /// `NSCompoundPredicate`s of them).
    ///
    /// ```swift
    /// let withRide = HKQuery.predicateForWorkouts(
    ///     activityPredicate: HKQuery.predicateForWorkoutActivities(workoutActivityType: .cycling))
    /// ```
    public static func predicateForWorkouts(activityPredicate: NSPredicate) -> NSPredicate {
        WorkoutActivitiesPredicate(activityPredicate)
    }

    // MARK: Workout activities, for predicateForWorkouts(activityPredicate:)

    /// Activities of `workoutActivityType`.
    public static func predicateForWorkoutActivities(workoutActivityType: HKWorkoutActivityType) -> NSPredicate {
        HKQueryPredicate(.activityType(workoutActivityType))
    }

    /// Activities whose duration compares so with `duration` seconds.
    public static func predicateForWorkoutActivities(
        operatorType: ComparisonOperator,
        duration: TimeInterval
    ) -> NSPredicate {
        HKQueryPredicate(.activityDuration(operator: operatorType, seconds: duration))
    }

    /// Activities in a date range, by the rules of sample date predicates
    /// (PRED-1..6).
    public static func predicateForWorkoutActivities(
        start startDate: Date?,
        end endDate: Date?,
        options: HKQueryOptions = []
    ) -> NSPredicate {
        HKQueryPredicate(.activityDateRange(start: startDate, end: endDate, options: options))
    }

    /// Activities whose recorded sum of `quantityType` compares so with
    /// `sumQuantity`.
    public static func predicateForWorkoutActivities(
        operatorType: ComparisonOperator,
        quantityType: HKQuantityType,
        sumQuantity: HKQuantity
    ) -> NSPredicate {
        statisticPredicate(workouts: false, quantityType, .sum, operatorType, sumQuantity)
    }

    /// Activities whose recorded average of `quantityType` compares so with
    /// `averageQuantity`.
    public static func predicateForWorkoutActivities(
        operatorType: ComparisonOperator,
        quantityType: HKQuantityType,
        averageQuantity: HKQuantity
    ) -> NSPredicate {
        statisticPredicate(workouts: false, quantityType, .average, operatorType, averageQuantity)
    }

    /// Activities whose recorded minimum of `quantityType` compares so with
    /// `minimumQuantity`.
    public static func predicateForWorkoutActivities(
        operatorType: ComparisonOperator,
        quantityType: HKQuantityType,
        minimumQuantity: HKQuantity
    ) -> NSPredicate {
        statisticPredicate(workouts: false, quantityType, .minimum, operatorType, minimumQuantity)
    }

    /// Activities whose recorded maximum of `quantityType` compares so with
    /// `maximumQuantity`.
    public static func predicateForWorkoutActivities(
        operatorType: ComparisonOperator,
        quantityType: HKQuantityType,
        maximumQuantity: HKQuantity
    ) -> NSPredicate {
        statisticPredicate(workouts: false, quantityType, .maximum, operatorType, maximumQuantity)
    }

    // MARK: Effort scores

    /// Samples related as effort scores to `workout`, and to `activity`
    /// when it is not `nil` (with `nil`, every effort sample related to the
    /// workout, whatever its activity).
    ///
    /// ```swift
    /// let effort = HKQuery.predicateForWorkoutEffortSamplesRelated(workout: run, activity: nil)
    /// ```
    public static func predicateForWorkoutEffortSamplesRelated(
        workout: HKWorkout,
        activity: HKWorkoutActivity?
    ) -> NSPredicate {
        HKQueryPredicate(.effortRelated(workout: workout.uuid, activity: activity?.uuid))
    }

    private static func statisticPredicate(
        workouts: Bool,
        _ quantityType: HKQuantityType,
        _ statistic: ObjectPredicate.RecordedStatistic,
        _ op: ComparisonOperator,
        _ quantity: HKQuantity
    ) -> NSPredicate {
        guard quantityType.is(compatibleWith: quantity.unit) else {
            programmerError(
                .invalid(
                    "PRED-13",
                    "\(quantityType.identifier) statistics compare with quantities in units it accepts, not \(quantity.unit.unitString)"
                )
            )
        }
        return HKQueryPredicate(
            workouts
                ? .workoutStatistic(type: quantityType, statistic: statistic, operator: op, value: quantity)
                : .activityStatistic(type: quantityType, statistic: statistic, operator: op, value: quantity)
        )
    }
}
