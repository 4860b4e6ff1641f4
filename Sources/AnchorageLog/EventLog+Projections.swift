extension EventLog {
    /// A projection database whose contents differ from a replay of the log.
    public struct ProjectionDisagreement: Sendable, Hashable, CustomStringConvertible {
        /// The projection's name.
        public let projection: String
        /// The database that differs.
        public let database: String

        public var description: String {
            "the projection \(projection) disagrees with a replay of the log in its database \(database)"
        }
    }

    /// Replays the whole log into every projection inside a write
    /// transaction, compares each projection database with what it held,
    /// and rolls the transaction back: `nil` when they all agree. Nothing
    /// changes either way; appends wait while it runs. A log opened for
    /// reading replays into a temporary copy of the store instead (in
    /// ``Configuration/scratchDirectory``, which needs room for it).
    ///
    /// ```swift
    /// if let disagreement = try await log.checkProjections() { print(disagreement) }
    /// ```
    public func checkProjections() async throws -> ProjectionDisagreement? {
        if isReadOnly { return try await checkProjectionsInCopy() }
        do {
            let outcome = try await writing().submit(.checkProjections, entryCount: 0, byteCount: 0)
            preconditionFailure("a projection check produced \(outcome)")
        } catch let result as ProjectionCheckResult {
            return result.disagreement
        }
    }
}

extension EventLog {
    /// Removes the payloads of the saves at `seqs`, keeping each entry's
    /// payload digest and link, so ``verify(progress:)`` still passes;
    /// returns how many were purged (deletes and purged saves are skipped).
    /// Projections are not told: purge only the saves of deleted objects.
    ///
    /// Purging is local: peers that hold the payload keep it, and a purged
    /// entry is never received again (its dot is in the version vector).
    /// The bytes leave the data file's live pages at once; freed pages may
    /// keep them until ``compact(at:)`` rewrites the file.
    @discardableResult
    public func purgePayloads(at seqs: [UInt64]) async throws -> Int {
        let outcome = try await writing().submit(.purge(seqs), entryCount: 0, byteCount: 0)
        guard case .purged(let count) = outcome else { preconditionFailure("a purge produced \(outcome)") }
        return count
    }
}
