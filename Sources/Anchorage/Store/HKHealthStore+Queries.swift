import AnchorageModel
import Foundation

extension HKHealthStore {
    /// Starts `query`. Its handlers are called on a background task, one at
    /// a time and in commit order. A query runs once: executing it
    /// again reports `errorInvalidArgument` through its handler (HealthKit
    /// raises an exception there, Q-1).
    ///
    /// ```swift
    /// let query = HKSampleQuery(sampleType: steps, predicate: nil, limit: HKObjectQueryNoLimit,
    ///                           sortDescriptors: nil) { _, samples, error in print(samples?.count ?? 0) }
    /// store.execute(query)
    /// ```
    public func execute(_ query: HKQuery) {
        guard query.lifecycle.markExecuted() else {
            query.lifecycle.deliverAlways {
                query.fail(HKError(.errorInvalidArgument, rule: "Q-1", "a query can be executed only once"))
            }
            return
        }
        queries.add(query)
        let task = Task { [self] in
            // The engine once the store's open is done, without blocking the
            // caller of execute(_:) or a thread of the pool meanwhile.
            do throws(HKError) {
                let engine = try await openEngine()
                await query.run(in: self, engine: engine)
            } catch {
                query.deliver { query.fail(error) }
            }
            queries.remove(query)
        }
        query.lifecycle.attach(task)
    }

    /// Stops `query`: no handler is called once this returns (except one
    /// already running), and a long-running query ends. Stopping a stopped
    /// query, or one never executed, does nothing.
    public func stop(_ query: HKQuery) {
        query.stopRunning()
        queries.remove(query)
    }
}
