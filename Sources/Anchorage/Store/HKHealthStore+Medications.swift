import AnchorageLog
public import AnchorageModel
import Foundation
import LMDB

extension HKHealthStore {
    /// Saves the person's medications (an owner-only Anchorage extension:
    /// HealthKit's Medications makes them and apps only read them).
    /// Recorded in the log, so they replicate and can be audited; a later
    /// save of a medication concept replaces the earlier one. A medication
    /// equal to the one stored for its concept is not saved again.
    ///
    /// ```swift
    /// let ibuprofen = try HKUserAnnotatedMedication.stored(
    ///     conceptCode: "197361", displayText: "Ibuprofen 200 mg", generalForm: .tablet, hasSchedule: true
    /// )
    /// try await owner.saveUserAnnotatedMedications([ibuprofen])
    /// ```
    ///
    /// - Returns: how many medications were saved (the rest were there).
    /// - Throws: ``HKError``: `errorAuthorizationDenied` for an app
    ///   (MED-3); `MED-2` for two medications of one concept in one save.
    @discardableResult
    public func saveUserAnnotatedMedications(_ medications: [HKUserAnnotatedMedication]) async throws -> Int {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, rule: "MED-3", "only the store's owner saves medications")
        }
        var concepts = Set<HKHealthConceptIdentifier>()
        for medication in medications where !concepts.insert(medication.medication.identifier).inserted {
            throw HKError.invalid("MED-2", "two medications of one concept in one save")
        }
        let engine = try await openEngine()
        let stored = try engine.read { txn in
            Dictionary(
                try engine.userAnnotatedMedications(in: txn).map { ($0.medication.identifier, $0) },
                uniquingKeysWith: { first, _ in first }
            )
        }
        var events: [LogEvent] = []
        for medication in medications where stored[medication.medication.identifier] != medication {
            let payload = try UserAnnotatedMedicationJSON(medication).encoded()
            events.append(.save(id: .random(), kind: StoreKind.userAnnotatedMedication, payload: payload))
        }
        guard !events.isEmpty else { return 0 }
        do {
            try await engine.log.append(events)
        } catch {
            throw HKError.wrapping(error)
        }
        return events.count
    }

    /// The medications `predicate` selects (all when `nil`), at most
    /// `limit` of them (no limit when `nil` or
    /// ``HKObjectQueryNoLimit``), as this caller may read them.
    ///
    /// - Throws: `PRED-14` for a predicate that is not built from
    ///   `HKQuery.predicateForUserAnnotatedMedications(…)` (MED-3);
    ///   `errorAuthorizationNotDetermined` when an app never asked to read
    ///   the medication type; an app not granted gets none.
    func userAnnotatedMedications(
        matching predicate: NSPredicate?,
        limit: Int?
    ) throws(HKError) -> [HKUserAnnotatedMedication] {
        let condition = try predicate.map { predicate throws(HKError) in try ObjectPredicate(predicate) }
        if let condition, !condition.isMedicationPredicate {
            throw .invalid(
                "PRED-14",
                "a medication query takes predicates from HKQuery.predicateForUserAnnotatedMedications(…)"
            )
        }
        let engine = try openEngine()
        let all = try engine.read { txn -> [HKUserAnnotatedMedication] in
            let kind = StoreKind.userAnnotatedMedication
            guard try engine.mayRead(kind, caller: caller, rule: "AUTH-12", what: "medications", in: txn) else {
                return []
            }
            return try engine.userAnnotatedMedications(in: txn)
        }
        let matching = condition.map { condition in all.filter { condition.evaluate($0) } } ?? all
        guard let limit, limit > 0 else { return matching }
        return Array(matching.prefix(limit))
    }
}
