import AnchorageModel
import Foundation

// HealthKit's members that have a plain answer on a node: no health
// records, no estimates to recalibrate, the date of birth as a date.

extension HKHealthStore {
    /// Whether the store can hold clinical (health) records: `false`; they
    /// reach HealthKit only from health institutions through Apple's service.
    public func supportsHealthRecords() -> Bool { false }

    /// The date of birth, at the start of its day in the store's calendar
    /// (deprecated in HealthKit for ``dateOfBirthComponents()``).
    ///
    /// - Throws: ``HKError`` `errorNoData` when it is not set or not readable.
    @available(*, deprecated, renamed: "dateOfBirthComponents()")
    public func dateOfBirth() throws -> Date {
        let components = try dateOfBirthComponents()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = (try? openEngine().configuration.timeZone) ?? .current
        guard components.year != nil, let date = calendar.date(from: components) else {
            throw HKError(.errorNoData, rule: "OBJ-30", "the date of birth is not set or not readable")
        }
        return date
    }

    /// The earliest date of the samples of each type this app may read: the
    /// store's ``earliestPermittedSampleDate()`` for every type it may read.
    public func earliestAuthorizedSampleDate(for types: Set<HKObjectType>) async throws -> [HKObjectType: Date] {
        let earliest = earliestPermittedSampleDate()
        var dates: [HKObjectType: Date] = [:]
        for type in types where caller.isOwner || authorizationStatus(for: type) != .notDetermined {
            dates[type] = earliest
        }
        return dates
    }

    /// Calls `completion` with ``earliestAuthorizedSampleDate(for:)``.
    public func getEarliestAuthorizedSampleDate(
        for types: Set<HKObjectType>,
        completion: @escaping @Sendable ([HKObjectType: Date]?, (any Error)?) -> Void
    ) {
        let types = UncheckedBox(types)
        Task {
            do {
                completion(try await self.earliestAuthorizedSampleDate(for: types.value), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    /// Splits a workout's total energy into active and resting energy: the
    /// resting part is the basal energy the store holds for the interval
    /// (prorated), the active part the rest, never below zero.
    ///
    /// ```swift
    /// store.splitTotalEnergy(total, start: start, end: end) { active, resting, error in … }
    /// ```
    @available(*, deprecated, message: "save active and basal energy samples instead")
    public func splitTotalEnergy(
        _ totalEnergy: HKQuantity,
        start startDate: Date,
        end endDate: Date,
        resultsHandler: @escaping @Sendable (HKQuantity?, HKQuantity?, (any Error)?) -> Void
    ) {
        guard totalEnergy.is(compatibleWith: .kilocalorie()), startDate <= endDate else {
            resultsHandler(nil, nil, HKError(.errorInvalidArgument, "split an energy quantity over an interval"))
            return
        }
        let basal = HKQuantityType(.basalEnergyBurned)
        let query = HKStatisticsQuery(
            quantityType: basal,
            quantitySamplePredicate: HKQuery.predicateForSamples(withStart: startDate, end: endDate),
            options: .cumulativeSum
        ) { _, statistics, error in
            if let error, (error as? HKError)?.code != .errorNoData {
                resultsHandler(nil, nil, error)
                return
            }
            let total = totalEnergy.doubleValue(for: .kilocalorie())
            let resting = min(total, statistics?.sumQuantity()?.doubleValue(for: .kilocalorie()) ?? 0)
            resultsHandler(
                HKQuantity(unit: .kilocalorie(), doubleValue: max(0, total - resting)),
                HKQuantity(unit: .kilocalorie(), doubleValue: resting),
                nil
            )
        }
        execute(query)
    }

    /// Recalibrates the estimates of `sampleType` from `date` on: no type
    /// here has estimates (``HKSampleType/allowsRecalibrationForEstimates``
    /// is `false`), so this throws `errorInvalidArgument`.
    public func recalibrateEstimates(sampleType: HKSampleType, date: Date) async throws {
        throw HKError(
            .errorInvalidArgument,
            "\(sampleType.identifier) has no estimates to recalibrate (allowsRecalibrationForEstimates is false)"
        )
    }

    /// Calls `completion` with the outcome of ``recalibrateEstimates(sampleType:date:)``.
    public func recalibrateEstimates(
        sampleType: HKSampleType,
        date: Date,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        complete(completion) { try await self.recalibrateEstimates(sampleType: sampleType, date: date) }
    }
}

/// Stores compare by identity, as HealthKit's do.
extension HKHealthStore: Hashable {
    public static func == (lhs: HKHealthStore, rhs: HKHealthStore) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Queries compare by identity, as HealthKit's do.
extension HKQuery: Hashable {
    public static func == (lhs: HKQuery, rhs: HKQuery) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
