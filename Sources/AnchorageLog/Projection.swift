public import LMDB

/// A view of the log kept current inside the write transaction that appends
/// each entry: an index, a materialized aggregate…
///
/// A projection owns some databases of the store and updates them in
/// ``apply(_:in:)``. Throwing from `apply` aborts the whole batch being
/// appended: the entries, the other projections' changes, everything.
/// Because a projection is a pure function of the log, the log can rebuild
/// it at any time by emptying its databases and replaying every entry
/// (``EventLog/rebuildProjections()``); it does so by itself when it opens
/// a store whose recorded ``version`` of the projection differs.
///
/// Projections are created by the factory passed to ``EventLog/open(at:configuration:projections:)``,
/// which runs in a write transaction so they can open their databases:
///
/// ```swift
/// struct CountByKind: Projection {
///     let counts: Database
///     var name: String { "count-by-kind" }
///     var version: Int { 1 }
///     var databases: [Database] { [counts] }
///
///     func apply(_ entry: LogEntry, in txn: borrowing WriteTransaction) throws {
///         let key = withUnsafeBytes(of: entry.kind.rawValue.bigEndian) { Array($0) }
///         let old = try txn.value(forKey: key, in: counts).map { UInt64(bigEndianBytes: $0) } ?? 0
///         try txn.put((old + 1).bigEndianBytes, forKey: key, in: counts)
///     }
/// }
///
/// let log = try EventLog.open(at: directory) { txn in
///     [CountByKind(counts: try txn.openDatabase(named: "counts")!)]
/// }
/// ```
///
/// `apply` runs on the log's writer thread, possibly more than once for the
/// same entry when a transaction is retried, so it must only change its
/// databases.
///
/// The log hands a projection the entries of one batch together through
/// ``apply(_:in:)-([LogEntry],_)``, whose default applies them one by one;
/// a projection may override it to update per-batch aggregates once. A
/// replay hands over entries in chunks that need not match the original
/// batches, so the result must not depend on where chunks begin and end.
public protocol Projection: Sendable {
    /// A stable name, unique among the log's projections.
    var name: String { get }
    /// The version of the projection's logic and layout; change it to make
    /// the log rebuild the projection on its next open.
    var version: Int { get }
    /// The databases the projection owns; they are emptied before a rebuild.
    var databases: [Database] { get }
    /// Applies one newly appended entry, inside its write transaction.
    func apply(_ entry: LogEntry, in txn: borrowing WriteTransaction) throws
    /// Applies consecutive entries, in order, inside their write transaction.
    func apply(_ entries: [LogEntry], in txn: borrowing WriteTransaction) throws
    /// Called when a write transaction begins, before any `apply`: forget
    /// whatever an abandoned transaction left half done.
    func transactionWillBegin()
    /// Called once every batch of a transaction has been applied, before it
    /// commits: work deferred from `apply` (computed once for a whole group
    /// of batches) is done here. Throwing abandons the transaction.
    func finish(in txn: borrowing WriteTransaction) throws
}

extension Projection {
    /// Applies each entry in order.
    public func apply(_ entries: [LogEntry], in txn: borrowing WriteTransaction) throws {
        for entry in entries { try apply(entry, in: txn) }
    }

    /// Nothing to forget.
    public func transactionWillBegin() {}

    /// Nothing deferred.
    public func finish(in txn: borrowing WriteTransaction) throws {}
}

/// Creates a log's projections inside the write transaction that opens it.
public typealias ProjectionFactory = (borrowing WriteTransaction) throws -> [any Projection]
