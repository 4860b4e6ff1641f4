public import LMDB

/// A view of the log kept current inside the write transaction that appends
/// each entry: an index, a materialized aggregate…
///
/// A projection owns some databases of the store and updates them in
/// ``apply(_:context:in:)``. Throwing from `apply` aborts the whole batch
/// being appended: the entries, the other projections' changes, everything.
/// Because a projection is a pure function of the log, the log can rebuild
/// it at any time by emptying its databases and replaying every entry
/// (``EventLog/rebuildProjections()``); it does so by itself when it opens
/// a store whose recorded ``version`` of the projection differs.
///
/// Projections are created by the factory passed to ``EventLog/open(at:configuration:projections:)``,
/// which runs in the opening transaction so they can open their databases:
///
/// ```swift
/// struct CountByKind: Projection {
///     let counts: Database
///     var name: String { "count-by-kind" }
///     var version: Int { 1 }
///     var databases: [Database] { [counts] }
///
///     func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
///         for entry in entries {
///             let key = withUnsafeBytes(of: entry.kind.rawValue.bigEndian) { Array($0) }
///             let old = try txn.value(forKey: key, in: counts).map { UInt64(bigEndianBytes: $0) } ?? 0
///             try txn.put((old + 1).bigEndianBytes, forKey: key, in: counts)
///         }
///     }
/// }
///
/// let log = try EventLog.open(at: directory) { opener in
///     [CountByKind(counts: try opener.database(named: "counts")!)]
/// }
/// ```
///
/// `apply` runs on the log's writer thread, possibly more than once for the
/// same entries when a transaction is tried again, so it changes only its
/// databases and the ``ProjectionContext`` it is given: a projection keeps
/// no state of its own between calls, and reads or writes no other
/// projection's. What one projection learns that another needs (the
/// objects an index showed and hid, for a view) goes through the context,
/// under a typed ``ProjectionOutputKey``: the consumer lists that key in
/// ``consumes``, and the log runs the producer first.
///
/// The log hands over the entries of one batch together; a replay hands
/// them over in chunks that need not match the original batches, so the
/// result must not depend on where chunks begin and end.
public protocol Projection: Sendable {
    /// A stable name, unique among the log's projections.
    var name: String { get }
    /// The version of the projection's logic and layout; change it to make
    /// the log rebuild the projection on its next open.
    var version: Int { get }
    /// The databases the projection owns; they are emptied before a rebuild.
    var databases: [Database] { get }
    /// The outputs this projection reads (``ProjectionOutputKey/consumed``):
    /// the log applies each batch to their producers first.
    var consumes: [ConsumedOutput] { get }
    /// Applies consecutive entries, in order, inside their write transaction.
    func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws
    /// Called once every batch of a transaction has been applied, before it
    /// commits: work deferred from `apply` (computed once for a whole group
    /// of batches) is done here. Throwing abandons the transaction.
    func finish(context: ProjectionContext, in txn: borrowing WriteTransaction) throws
}

extension Projection {
    /// Consumes nothing.
    public var consumes: [ConsumedOutput] { [] }

    /// Nothing deferred.
    public func finish(context: ProjectionContext, in txn: borrowing WriteTransaction) throws {}
}

/// Creates a log's projections inside the transaction that opens it: a
/// write transaction (the opener creates their databases) or, for a log
/// opened for reading, a read transaction (it finds them).
public typealias ProjectionFactory = @Sendable (borrowing DatabaseOpener) throws -> [any Projection]

extension [any Projection] {
    /// The projections in an order where each comes after those it
    /// consumes, otherwise as given.
    ///
    /// - Throws: ``LogError`` `invalidArgument` for a name consumed but
    ///   missing, or projections that consume each other.
    func orderedByConsumption() throws(LogError) -> [any Projection] {
        let names = Set(map(\.name))
        for projection in self {
            for name in projection.consumes.map(\.producer) where !names.contains(name) {
                throw LogError(
                    .invalidArgument,
                    "the projection \(projection.name) consumes \(name), which is not open"
                )
            }
        }
        var ordered: [any Projection] = []
        var placed = Set<String>()
        var remaining = self
        while !remaining.isEmpty {
            guard let next = remaining.firstIndex(where: { $0.consumes.allSatisfy { placed.contains($0.producer) } })
            else {
                throw LogError(
                    .invalidArgument,
                    "the projections \(remaining.map(\.name).joined(separator: ", ")) consume each other"
                )
            }
            placed.insert(remaining[next].name)
            ordered.append(remaining.remove(at: next))
        }
        return ordered
    }

    /// The projections to rebuild when `stale` are: each stale one and,
    /// transitively, the projections it consumes, which must run again to
    /// publish what it reads. In this array's order (consumption order).
    ///
    /// A consumer never reads its producer's databases: rebuilt alone it
    /// would have nothing to consume, so it is rebuilt with its producers.
    func rebuildSet(for stale: [any Projection]) -> [any Projection] {
        var needed = Set(stale.map(\.name))
        var consumed: [String: [String]] = [:]
        for projection in self { consumed[projection.name] = projection.consumes.map(\.producer) }
        var pending = [String](needed)
        while let name = pending.popLast() {
            for producer in consumed[name] ?? [] where !needed.contains(producer) {
                needed.insert(producer)
                pending.append(producer)
            }
        }
        return filter { needed.contains($0.name) }
    }
}
