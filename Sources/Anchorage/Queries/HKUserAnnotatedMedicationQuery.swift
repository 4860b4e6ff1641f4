import AnchorageLog
public import AnchorageModel
public import Foundation

/// Reads the medications the person tracks, one per call of the results
/// handler: each call brings one medication and `false`; a last call brings
/// `nil` and `true` (done). An error ends the query with `nil`, `true` and
/// the error.
///
/// ```swift
/// let query = HKUserAnnotatedMedicationQuery(
///     predicate: HKQuery.predicateForUserAnnotatedMedications(isArchived: false), limit: HKObjectQueryNoLimit
/// ) { _, medication, done, error in
///     if let medication { print(medication.medication.displayText) }
///     if done { print("that is all") }
/// }
/// store.execute(query)
/// ```
///
/// Reading medications needs the owner's decision even under `grantAll`
/// (AUTH-12); an app that was not granted gets no medications, only `done`.
public final class HKUserAnnotatedMedicationQuery: HKQuery, @unchecked Sendable {
    // @unchecked: immutable; the handler is called one call at a time.

    /// The handler's type (not `@Sendable`, as in HealthKit).
    public typealias ResultsHandler = (HKUserAnnotatedMedicationQuery, HKUserAnnotatedMedication?, Bool, (any Error)?)
        ->
        Void

    private let limit: Int
    private let resultsHandler: ResultsHandler

    /// A query for the medications `predicate` selects (all when `nil`;
    /// ``HKQuery/predicateForUserAnnotatedMedications(isArchived:)`` and
    /// ``HKQuery/predicateForUserAnnotatedMedications(hasSchedule:)``,
    /// combined with `NSCompoundPredicate` as needed), at most `limit`
    /// (``HKObjectQueryNoLimit`` for all).
    public init(predicate: NSPredicate?, limit: Int, resultsHandler: @escaping ResultsHandler) {
        self.limit = limit
        self.resultsHandler = resultsHandler
        super.init(objectType: TypeCatalog.userAnnotatedMedication, predicate: predicate)
    }

    override func fail(_ error: HKError) {
        resultsHandler(self, nil, true, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        do {
            let medications = try store.userAnnotatedMedications(matching: predicate, limit: limit)
            for medication in medications {
                guard !lifecycle.isStopped else { return }
                deliver { resultsHandler(self, medication, false, nil) }
            }
            deliver { resultsHandler(self, nil, true, nil) }
        } catch {
            deliver { fail(HKError.wrapping(error)) }
        }
    }
}

/// The async form of ``HKUserAnnotatedMedicationQuery``: every matching
/// medication at once.
///
/// ```swift
/// let scheduled = try await HKUserAnnotatedMedicationQueryDescriptor(
///     predicate: HKQuery.predicateForUserAnnotatedMedications(hasSchedule: true)
/// ).result(for: store)
/// ```
public struct HKUserAnnotatedMedicationQueryDescriptor: Sendable, HKAsyncQuery {
    /// The medications to read; all when `nil`.
    nonisolated(unsafe) public var predicate: NSPredicate?
    /// The most medications to return; all when `nil`.
    public var limit: Int?

    /// A descriptor for the medications `predicate` selects, at most `limit`.
    public init(predicate: NSPredicate? = nil, limit: Int? = nil) {
        self.predicate = predicate
        self.limit = limit
    }

    /// The matching medications; an empty array when none match.
    public func result(for healthStore: HKHealthStore) async throws -> [HKUserAnnotatedMedication] {
        try healthStore.userAnnotatedMedications(matching: predicate, limit: limit)
    }
}
