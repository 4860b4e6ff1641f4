public import Foundation

extension HKWorkout {
    /// The statistics recorded with the workout, by quantity type: the
    /// energy, distance, steps, heart rate… the device measured over it.
    ///
    /// ```swift
    /// let heart = workout.allStatistics[HKQuantityType(.heartRate)]
    /// print(heart?.averageQuantity()?.doubleValue(for: HKUnit.count().unitDivided(by: .minute())) ?? 0)
    /// ```
    ///
    /// Empty for a workout saved without statistics. HealthKit computes
    /// these from the samples associated with the workout; Anchorage keeps
    /// the ones recorded with it (for an imported workout, its
    /// `WorkoutStatistics` elements).
    public var allStatistics: [HKQuantityType: HKStatistics] {
        Dictionary(recordedStatistics.map { ($0.quantityType, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The statistics recorded with the workout for `quantityType`, or `nil`
    /// when there are none.
    ///
    /// ```swift
    /// let energy = workout.statistics(for: HKQuantityType(.activeEnergyBurned))?.sumQuantity()
    /// ```
    public func statistics(for quantityType: HKQuantityType) -> HKStatistics? {
        recordedStatistics.first { $0.quantityType == quantityType }
    }

    /// At most this many statistics per workout: one per quantity type.
    package static let maximumStatistics = 256

    /// Checks the statistics of a new workout: one per type, at most
    /// ``maximumStatistics`` (OBJ-21).
    package static func checkStatistics(_ statistics: [HKStatistics]) throws(HKError) {
        guard statistics.count <= maximumStatistics else {
            throw .invalid("OBJ-21", "a workout may carry at most \(maximumStatistics) statistics")
        }
        var types = Set<HKQuantityType>()
        for item in statistics where !types.insert(item.quantityType).inserted {
            throw .invalid("OBJ-21", "a workout carries two statistics of \(item.quantityType.identifier)")
        }
    }
}

extension HKStatistics {
    /// Statistics measured over an interval and recorded as they are, for
    /// a workout: an Anchorage extension (HealthKit's workout builders make
    /// them from samples).
    ///
    /// ```swift
    /// let heart = try HKStatistics.recorded(
    ///     quantityType: HKQuantityType(.heartRate), startDate: start, endDate: end,
    ///     average: HKQuantity(unit: HKUnit.count().unitDivided(by: .minute()), doubleValue: 152))
    /// ```
    ///
    /// Each quantity is converted to the type's canonical unit; the
    /// options are those of the values given.
    ///
    /// - Throws: ``HKError`` `OBJ-7` when the start is after the end,
    ///   `OBJ-10` for a unit the type does not accept or a value that is not
    ///   finite, `OBJ-21` when no value is given.
    public static func recorded(
        quantityType: HKQuantityType,
        startDate: Date,
        endDate: Date,
        sum: HKQuantity? = nil,
        average: HKQuantity? = nil,
        minimum: HKQuantity? = nil,
        maximum: HKQuantity? = nil
    ) throws(HKError) -> HKStatistics {
        try HKSample.checkInterval(start: startDate, end: endDate)
        func canonical(_ quantity: HKQuantity?) throws(HKError) -> Double? {
            guard let quantity else { return nil }
            try HKQuantitySample.checkQuantity(type: quantityType, quantity: quantity)
            return quantity.doubleValue(for: quantityType.canonicalUnit)
        }
        let values = StatisticsValues(
            sum: try canonical(sum),
            average: try canonical(average),
            minimum: try canonical(minimum),
            maximum: try canonical(maximum)
        )
        return try recorded(quantityType: quantityType, startDate: startDate, endDate: endDate, values: values)
    }

    /// Recorded statistics from values already in the canonical unit.
    package static func recorded(
        quantityType: HKQuantityType,
        startDate: Date,
        endDate: Date,
        values: StatisticsValues
    ) throws(HKError) -> HKStatistics {
        var options: HKStatisticsOptions = []
        for (value, option) in [
            (values.sum, HKStatisticsOptions.cumulativeSum), (values.average, .discreteAverage),
            (values.minimum, .discreteMin), (values.maximum, .discreteMax),
        ] {
            guard let value else { continue }
            guard value.isFinite else { throw .invalid("OBJ-10", "a workout statistic must be a finite number") }
            options.insert(option)
        }
        guard !options.isEmpty else {
            throw .invalid("OBJ-21", "a workout statistic needs a sum, an average, a minimum or a maximum")
        }
        return HKStatistics(
            quantityType: quantityType,
            startDate: startDate,
            endDate: endDate,
            options: options,
            merged: values,
            bySource: [:]
        )
    }

    /// The recorded values, in the canonical unit.
    package var recordedValues: StatisticsValues { merged }
}
