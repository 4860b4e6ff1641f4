public import AnchorageModel
public import Foundation

/// A sample type and a predicate: one of the parts of a query over several
/// types (``HKSampleQuery/init(queryDescriptors:limit:resultsHandler:)``,
/// ``HKAnchoredObjectQuery`` and ``HKObserverQuery`` take arrays of them).
///
/// ```swift
/// let heart = HKQueryDescriptor(sampleType: HKQuantityType(.heartRate), predicate: nil)
/// let steps = HKQueryDescriptor(sampleType: HKQuantityType(.stepCount), predicate: today)
/// let query = HKSampleQuery(queryDescriptors: [heart, steps], limit: HKObjectQueryNoLimit) { _, samples, _ in … }
/// ```
public final class HKQueryDescriptor: Hashable, @unchecked Sendable {
    // @unchecked: immutable; NSPredicate is not Sendable on Linux, and
    // HKQueryPredicate, the only kind queries accept, is immutable.

    /// The type of the samples the descriptor matches.
    public let sampleType: HKSampleType
    /// The predicate they match; `nil` for every sample of the type.
    public let predicate: NSPredicate?

    /// Creates a descriptor.
    public init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        self.predicate = predicate
    }

    public static func == (lhs: HKQueryDescriptor, rhs: HKQueryDescriptor) -> Bool {
        lhs.sampleType == rhs.sampleType && lhs.predicate == rhs.predicate
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sampleType)
    }

    /// What a query reads: its descriptors' targets, or its one type and
    /// predicate.
    static func targets(
        _ descriptors: [HKQueryDescriptor]?,
        or type: HKSampleType?,
        predicate: NSPredicate?
    ) throws(HKError) -> [QueryTarget] {
        if let descriptors { return try targets(descriptors) }
        guard let type else { return [] }
        return [QueryTarget(type: type, predicate: try QueryInputs.predicate(predicate, for: type))]
    }

    /// The descriptors' types and typed predicates; throws for a predicate
    /// that is not one of HealthKit's, or an empty list.
    static func targets(_ descriptors: [HKQueryDescriptor]) throws(HKError) -> [QueryTarget] {
        guard !descriptors.isEmpty else {
            throw HKError(.errorInvalidArgument, rule: "SQ-4", "a query needs at least one query descriptor")
        }
        var targets: [QueryTarget] = []
        for descriptor in descriptors {
            let typed = try QueryInputs.predicate(descriptor.predicate, for: descriptor.sampleType)
            targets.append(QueryTarget(type: descriptor.sampleType, predicate: typed))
        }
        return targets
    }
}

/// One (type, typed predicate) a query reads.
struct QueryTarget: Sendable {
    let type: HKSampleType
    let predicate: ObjectPredicate?
}
