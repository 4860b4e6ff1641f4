import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension HKHealthStore {
    /// Saves activity summaries, one per day (an owner-only Anchorage
    /// extension: HealthKit makes its summaries itself). Recorded in the log,
    /// so they replicate and can be audited; a later save of a day replaces
    /// the earlier one. A summary equal to the one stored for its day is not
    /// saved again, so importing an export twice adds nothing.
    ///
    /// ```swift
    /// let day = try HKActivitySummary(dateComponents: DateComponents(year: 2026, month: 1, day: 9))
    /// day.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: 702.2)
    /// try await owner.saveActivitySummaries([day])
    /// ```
    ///
    /// - Returns: how many summaries were saved (the rest were already there).
    /// - Throws: ``HKError``: `errorAuthorizationDenied` for an app,
    ///   `ACT-1` for a summary without a valid day or two of one day,
    ///   `ACT-2` for a value in the wrong kind of unit or negative. Nothing
    ///   is saved then.
    @discardableResult
    public func saveActivitySummaries(_ summaries: [HKActivitySummary]) async throws -> Int {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, rule: "ACT-3", "only the store's owner saves activity summaries")
        }
        var records: [ActivitySummaryRecord] = []
        var days = Set<String>()
        for summary in summaries {
            let record = try ActivitySummaryRecord(summary)
            guard days.insert(record.day).inserted else {
                throw HKError.invalid("ACT-1", "two activity summaries of one day in one save")
            }
            records.append(record)
        }
        let engine = try await openEngine()
        let stored = try engine.read { txn in
            try records.map { record in try engine.activitySummary(on: ActivityDay(text: record.day)!, in: txn) }
        }
        var events: [LogEvent] = []
        for (record, current) in zip(records, stored) where record != current {
            events.append(.save(id: .random(), kind: StoreKind.activitySummary, payload: try record.encoded()))
        }
        guard !events.isEmpty else { return 0 }
        do {
            try await engine.log.append(events)
        } catch {
            throw HKError.wrapping(error)
        }
        return events.count
    }

    /// The summaries of the days from `first` through `last` (either open),
    /// in day order, as this caller may read them.
    ///
    /// - Throws: `errorAuthorizationNotDetermined` when an app never asked
    ///   to read the activity summary type; an app that was denied gets none.
    func activitySummaries(from first: ActivityDay?, through last: ActivityDay?) throws(HKError) -> [HKActivitySummary]
    {
        let engine = try openEngine()
        return try engine.read { txn -> [HKActivitySummary] in
            let kind = StoreKind.activitySummary
            guard try engine.mayRead(kind, caller: caller, rule: "ACT-3", what: "activity summaries", in: txn) else {
                return []
            }
            return try engine.activitySummaries(from: first, through: last, in: txn).map(\.summary)
        }
    }
}
