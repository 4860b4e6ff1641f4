public import Anchorage

extension StatisticsRequest {
    /// The number of buckets the request asks for, at most
    /// ``maximumBuckets``.
    ///
    /// ```swift
    /// let count = try request.checkedBucketCount(in: store)   // charge a quota with it, then compute
    /// ```
    ///
    /// - Throws: ``StatisticsRequestError`` `invalidArgument` for more
    ///   buckets; ``HKError`` for options that do not suit the type (ST-1),
    ///   which the initializers refuse already unless they were changed since.
    public func checkedBucketCount(in store: HKHealthStore) throws -> Int {
        let count = try descriptor.bucketCount(for: store, from: start, to: end)
        guard count <= Self.maximumBuckets else {
            throw StatisticsRequestError(
                .invalidArgument,
                nil,
                "that asks for \(count) buckets, more than the \(Self.maximumBuckets) one request may compute; "
                    + "use a longer interval or a shorter range"
            )
        }
        return count
    }

    /// The answer, computed on the calling thread: only the buckets asked
    /// for. `readable: false` answers like a type without data (AUTH-4).
    ///
    /// ```swift
    /// let table = try request.table(from: store)
    /// print(table.textTable().joined(separator: "\n"))
    /// ```
    ///
    /// - Throws: what ``checkedBucketCount(in:)`` throws, and the store's errors.
    public func table(from store: HKHealthStore, readable: Bool = true) throws -> StatisticsTable {
        _ = try checkedBucketCount(in: store)
        let collection = try descriptor.computedResult(for: store, from: start, to: end, readable: readable)
        return StatisticsTable(
            collection,
            from: start,
            to: end,
            unit: unit,
            timeZone: timeZone,
            intervalText: intervalText,
            timeZoneText: timeZoneText
        )
    }
}
