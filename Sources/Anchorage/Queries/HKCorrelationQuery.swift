public import AnchorageModel
public import Foundation

/// The correlations of a type (blood pressure, food) matching a predicate
/// and per-member-type predicates (CQ-1..5).
///
/// A correlation matches when it satisfies `predicate`, contains at least
/// one visible member of every type in `samplePredicates`, and every visible
/// member of those types satisfies its predicate (CQ-2). Members the app may
/// not read are hidden and do not count (CQ-4, CQ-5).
///
/// ```swift
/// let energy = HKQuantityType(.dietaryEnergyConsumed)
/// let highCalorie = HKQuery.predicateForQuantitySamples(
///     with: .greaterThanOrEqualTo, quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 800))
/// let query = HKCorrelationQuery(type: HKCorrelationType(.food), predicate: nil,
///                                samplePredicates: [energy: highCalorie]) { _, foods, error in … }
/// store.execute(query)
/// ```
public final class HKCorrelationQuery: HKQuery, @unchecked Sendable {
    /// The correlation type.
    public let correlationType: HKCorrelationType
    /// Predicates on members, by member type.
    public let samplePredicates: [HKSampleType: NSPredicate]?
    private let completion: @Sendable (HKCorrelationQuery, [HKCorrelation]?, (any Error)?) -> Void

    /// Creates a correlation query.
    public init(
        type correlationType: HKCorrelationType,
        predicate: NSPredicate?,
        samplePredicates: [HKSampleType: NSPredicate]?,
        completion: @escaping @Sendable (HKCorrelationQuery, [HKCorrelation]?, (any Error)?) -> Void
    ) {
        self.correlationType = correlationType
        self.samplePredicates = samplePredicates
        self.completion = completion
        super.init(objectType: correlationType, predicate: predicate)
    }

    override func fail(_ error: HKError) {
        completion(self, nil, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        answer(self, completion) {
            let typed = try QueryInputs.predicate(predicate, for: correlationType)
            var members: [(type: HKSampleType, predicate: ObjectPredicate)] = []
            for (type, predicate) in samplePredicates ?? [:] {
                members.append((type, try QueryInputs.predicate(predicate, for: type) ?? .constant(true)))
            }
            return try engine.read(as: store.caller) { txn, session in
                try engine.correlations(
                    of: correlationType,
                    predicate: typed,
                    samplePredicates: members,
                    in: txn,
                    session: &session
                )
            }
        }
    }
}
