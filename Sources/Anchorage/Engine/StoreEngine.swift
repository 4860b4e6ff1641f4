import AnchorageLog
import AnchorageModel
import Foundation
import LMDB
import Synchronization

/// The engine behind every ``HKHealthStore`` of one directory in this
/// process: the log, its indices, and the running queries.
///
/// A second `HKHealthStore(directory:)` of the same directory shares the
/// engine; another process gets `errorDatabaseInaccessible` ("in use")
/// because the log holds an exclusive lock on the directory.
///
/// Its work is split by responsibility, one file each in `Engine/`:
/// handles and reads in one transaction (this file), opening and sharing
/// between the stores of a process (``StoreRegistry``), access and grants (`+Access`,
/// `+Authorization`), writes (`+Save`, `+Effort`), reads (`+Read`,
/// `+Queries`, `+SortedSamples`, `+ActivitySummaries`), the change feed and
/// anchors (`+Changes`, `+Follow`, `+Anchors`), background delivery
/// (`+Delivery`), statistics (`+Statistics`, `+SingleStatistics`, `+Views`)
/// and the state digest (`+Digest`).
final class StoreEngine: Sendable {
    let log: EventLog
    let index: HealthIndex
    let views: StatisticsViews
    let configuration: HKHealthStore.Configuration
    let counters = IndexCounters()
    /// The registry key: the standardized directory path.
    let path: String
    private let handles = Mutex(1)

    init(
        log: EventLog,
        index: HealthIndex,
        views: StatisticsViews,
        configuration: HKHealthStore.Configuration,
        path: String
    ) {
        self.log = log
        self.index = index
        self.views = views
        self.configuration = configuration
        self.path = path
    }

    /// Counts one more handle, unless the engine was closed.
    func acquire() -> Bool {
        handles.withLock { count in
            guard count > 0 else { return false }
            count += 1
            return true
        }
    }

    /// Releases one handle; the last one closes the log.
    func release() async {
        let last = handles.withLock { count in
            guard count > 0 else { return false }
            count -= 1
            return count == 0
        }
        guard last else { return }
        StoreRegistry.forget(self)
        await log.close()
    }

    /// Runs `body` in one read transaction, mapping storage failures to
    /// `errorDatabaseInaccessible`.
    func read<R>(_ body: (borrowing ReadTransaction) throws -> R) throws(HKError) -> R {
        do {
            return try log.withReadTransaction(body)
        } catch {
            throw HKError.wrapping(error)
        }
    }
}

/// Counts index rows read by queries, and statistics queries the views
/// answered: a hook for tests and benchmarks that check a query reads what
/// the index promises, not the whole store.
final class IndexCounters: Sendable {
    private let rows = Atomic<Int>(0)
    private let viewed = Atomic<Int>(0)
    private let bucketsViewed = Atomic<Int>(0)
    private let bucketsComputed = Atomic<Int>(0)

    func count(_ n: Int = 1) { rows.add(n, ordering: .relaxed) }

    var rowsRead: Int { rows.load(ordering: .relaxed) }

    /// Notes a statistics query answered from the views.
    func viewedStatistics() { viewed.add(1, ordering: .relaxed) }

    /// How many statistics queries the views answered.
    var statisticsFromViews: Int { viewed.load(ordering: .relaxed) }

    /// Notes collection buckets answered from the views' rows, and buckets
    /// computed from the samples instead (the reference evaluator).
    func statisticsBuckets(viewed: Int, computed: Int) {
        bucketsViewed.add(viewed, ordering: .relaxed)
        bucketsComputed.add(computed, ordering: .relaxed)
    }

    /// Collection buckets answered from the views' rows, and computed from
    /// samples, so far: what share the views really serve.
    var statisticsBuckets: (viewed: Int, computed: Int) {
        (bucketsViewed.load(ordering: .relaxed), bucketsComputed.load(ordering: .relaxed))
    }
}

extension HKError {
    /// `error` as an ``HKError``: itself, or `errorDatabaseInaccessible`
    /// with its description for storage and log failures.
    static func wrapping(_ error: any Error) -> HKError {
        if let error = error as? HKError { return error }
        if error is CancellationError { return HKError(.errorUserCanceled, "the operation was cancelled") }
        if let error = error as? LogError, error.code == .readOnly {
            return HKError(
                .errorDatabaseInaccessible,
                "the store was opened read-only (Configuration.readOnly); it cannot be written",
                underlyingError: error
            )
        }
        return HKError(.errorDatabaseInaccessible, "the store failed: \(error)", underlyingError: error)
    }
}
