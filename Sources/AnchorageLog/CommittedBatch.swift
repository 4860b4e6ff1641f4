public import LMDB

/// The entries one caller's batch added to the log, announced after commit.
///
/// A batch is what one ``EventLog/append(_:)`` or ``EventLog/apply(_:checkpoint:)``
/// call stored: all of it committed together, and no other batch's entries
/// lie between ``first`` and ``last``.
///
/// ```swift
/// for await batch in log.committedBatches() {
///     let page = try log.entries(after: batch.previous, limit: batch.count)
/// }
/// ```
public struct CommittedBatch: Sendable, Hashable {
    /// The anchor of the batch's first entry.
    public let first: Anchor
    /// The anchor of its last entry: the head right after it.
    public let last: Anchor

    /// The anchor just before the batch: read after it to get the batch.
    public var previous: Anchor {
        Anchor(storeID: first.storeID, incarnation: first.incarnation, seq: first.seq - 1)
    }

    /// The number of entries.
    public var count: Int { Int(last.seq - first.seq + 1) }
}

/// A check that runs inside the write transaction just before a batch is
/// stored; see ``EventLog/append(_:precondition:)``. What it returns is the
/// batch's ``ProjectionContext/input`` for the projections.
public typealias AppendPrecondition = @Sendable (borrowing WriteTransaction) throws -> (any Sendable)?
