import AnchorageLog
import AnchorageModel
import Foundation

extension StoreEngine {
    /// Ends the relation of the saved sample `sample` to the saved workout
    /// `workout` as an effort score. A pair that is not related is left as
    /// it is (the call succeeds and appends nothing).
    func unrelateEffort(sample: UUID, workout: UUID, caller: Caller) async throws(HKError) {
        _ = try await commit { txn in
            var plan = WritePlan()
            guard let workoutRecord = try index.record(workout, in: txn), workoutRecord.isLive,
                workoutRecord.kind.rawValue == TypeCatalog.workout.kindCode
            else {
                throw HKError(.errorInvalidArgument, rule: "OBJ-24", "the workout \(workout) is not saved in the store")
            }
            guard let sampleRecord = try index.record(sample, in: txn), sampleRecord.isLive,
                let type = TypeCatalog.sampleType(forKindCode: sampleRecord.kind.rawValue)
            else {
                throw HKError(.errorInvalidArgument, rule: "OBJ-24", "the sample \(sample) is not saved in the store")
            }
            try checkShare(TypeCatalog.workout, caller: caller, in: txn)
            try checkShare(type, caller: caller, in: txn)
            guard try index.effortRelation(of: sample, to: workout, in: txn) != nil else { return plan }
            let record = EffortRecord(operation: .unrelate, workout: workout, sample: sample, activity: nil)
            plan.events.append(.save(id: .random(), kind: StoreKind.effort, payload: record.bytes))
            plan.liveIDs = [workout, sample]
            return plan
        }
    }
}
