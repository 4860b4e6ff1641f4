import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// Checks and converts what a query was given, so that bad input becomes a
/// typed error through the handler (HealthKit raises exceptions for some).
enum QueryInputs {
    /// The typed form of `predicate`, checked against `type` (PRED-11, PRED-14).
    static func predicate(_ predicate: NSPredicate?, for type: HKSampleType) throws(HKError) -> ObjectPredicate? {
        guard let predicate else { return nil }
        let typed = try ObjectPredicate(predicate)
        try typed.validate(for: type)
        return typed
    }

    /// A limit: 0 means none (SQ-2); negative limits are invalid.
    static func limit(_ limit: Int) throws(HKError) -> Int? {
        guard limit >= 0 else {
            throw HKError(
                .errorInvalidArgument,
                rule: "SQ-2",
                "the limit is \(limit); use 0 (no limit) or a positive number"
            )
        }
        return limit == 0 ? nil : limit
    }

    /// The sort descriptors, which must name sample sort identifiers (OBJ-8).
    static func sortDescriptors(_ descriptors: [NSSortDescriptor]?) throws(HKError) -> [SampleSortDescriptor] {
        var sorts: [SampleSortDescriptor] = []
        for descriptor in descriptors ?? [] { sorts.append(try SampleSortDescriptor(descriptor)) }
        return sorts
    }
}
