import AnchorageModel
import Foundation

extension StoreEngine {
    /// The matching samples, sorted, then limited (SQ-3).
    func sortedSamples(
        of type: HKSampleType,
        predicate: ObjectPredicate?,
        sorts: [SampleSortDescriptor],
        limit: Int?,
        caller: Caller
    ) throws(HKError) -> [HKSample] {
        try sortedSamples(
            of: [QueryTarget(type: type, predicate: predicate)],
            sorts: sorts,
            limit: limit,
            caller: caller
        )
    }

    /// The samples matching any target, each once, in anchor order within
    /// a target and targets in order; then sorted and limited (SQ-3, SQ-4).
    func sortedSamples(
        of targets: [QueryTarget],
        sorts: [SampleSortDescriptor],
        limit: Int?,
        caller: Caller
    ) throws(HKError) -> [HKSample] {
        let samples = try read(as: caller) { txn, session in
            guard targets.count > 1 else {
                guard let target = targets.first else { return [HKSample]() }
                return try matchingSamples(of: target.type, predicate: target.predicate, in: txn, session: &session)
            }
            var seen = Set<UUID>()
            var all: [HKSample] = []
            for target in targets {
                for sample in try matchingSamples(
                    of: target.type,
                    predicate: target.predicate,
                    in: txn,
                    session: &session
                )
                where seen.insert(sample.uuid).inserted {
                    all.append(sample)
                }
            }
            return all
        }
        let sorted = SampleSortDescriptor.sort(samples, by: sorts)
        guard let limit, sorted.count > limit else { return sorted }
        return Array(sorted.prefix(limit))
    }
}
