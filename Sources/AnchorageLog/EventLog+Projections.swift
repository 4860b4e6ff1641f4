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
    /// changes either way; appends wait while it runs.
    ///
    /// ```swift
    /// if let disagreement = try await log.checkProjections() { print(disagreement) }
    /// ```
    public func checkProjections() async throws -> ProjectionDisagreement? {
        do {
            let outcome = try await writer.submit(.checkProjections, entryCount: 0, byteCount: 0)
            preconditionFailure("a projection check produced \(outcome)")
        } catch let result as ProjectionCheckResult {
            return result.disagreement
        }
    }
}
