public import AnchorageLog
import AnchorageModel

extension HKHealthStore {
    /// What a store's engine has done since it was opened: for operators'
    /// metrics and for checking that queries use the indices.
    ///
    /// ```swift
    /// let before = store.statistics.indexRowsRead
    /// _ = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps, predicate: lastHour)],
    ///                                       sortDescriptors: []).result(for: store)
    /// print(store.statistics.indexRowsRead - before)   // about the number of matches
    /// ```
    public struct Statistics: Sendable {
        /// Index rows queries have read.
        public var indexRowsRead: Int
        /// The log's commit counters.
        public var log: EventLog.Statistics
    }

    /// The engine's counters; `nil` for a store that could not be opened.
    public var statistics: Statistics? {
        guard let engine = try? engine() else { return nil }
        return Statistics(indexRowsRead: engine.counters.rowsRead, log: engine.log.statistics)
    }
}

extension HKHealthStore {
    /// Empties the store's indices and rebuilds them by replaying the log,
    /// in one transaction (saves wait meanwhile); returns the number of
    /// entries replayed. Only the owner may do it. Use it after a suspected
    /// index bug; a changed index version triggers it on open.
    @discardableResult
    public func rebuildIndices() async throws -> Int {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, "only the store's owner rebuilds its indices")
        }
        do {
            return try await openEngine().log.rebuildProjections()
        } catch {
            throw HKError.wrapping(error)
        }
    }
}
