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
final class StoreEngine: Sendable {
    let log: EventLog
    let index: HealthIndex
    let views: StatisticsViews
    let configuration: HKHealthStore.Configuration
    let counters = IndexCounters()
    /// The registry key: the standardized directory path.
    let path: String
    private let handles = Mutex(1)

    private init(
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

    private final class WeakEngine: Sendable {
        weak let engine: StoreEngine?
        init(_ engine: StoreEngine) { self.engine = engine }
    }

    private static let registry = Mutex<[String: WeakEngine]>([:])

    /// The engine of `directory`: the one already open in this process, or a
    /// newly opened one.
    static func open(directory: URL, configuration: HKHealthStore.Configuration) throws(HKError) -> StoreEngine {
        let path = directory.standardizedFileURL.path
        return try registry.withLock { (engines) throws(HKError) -> StoreEngine in
            if let engine = engines[path]?.engine, engine.acquire() { return engine }
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let holder = Mutex<(HealthIndex, StatisticsViews)?>(nil)
                let log = try EventLog.open(at: directory, configuration: configuration.log) { txn in
                    let index = try HealthIndex(in: txn)
                    let views = try StatisticsViews(in: txn, index: index)
                    holder.withLock { $0 = (index, views) }
                    return configuration.maintainsStatisticsViews ? [index, views] : [index]
                }
                guard let (index, views) = holder.withLock({ $0 }) else {
                    throw HKError(.errorDatabaseInaccessible, "the store's indices were not opened")
                }
                index.writer.localOrigin = log.originID
                let engine = StoreEngine(
                    log: log,
                    index: index,
                    views: views,
                    configuration: configuration,
                    path: path
                )
                engines[path] = WeakEngine(engine)
                return engine
            } catch let error as HKError {
                throw error
            } catch let error as LogError where error.code == .storeInUse {
                throw HKError(
                    .errorDatabaseInaccessible,
                    "the store at \(path) is in use by another process; one process opens a store at a time",
                    underlyingError: error
                )
            } catch {
                throw HKError(
                    .errorDatabaseInaccessible,
                    "the store at \(path) could not be opened: \(error)",
                    underlyingError: error
                )
            }
        }
    }

    /// Counts one more handle, unless the engine was closed.
    private func acquire() -> Bool {
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
        Self.registry.withLock { engines in
            if engines[path]?.engine === self { engines.removeValue(forKey: path) }
        }
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

    func count(_ n: Int = 1) { rows.add(n, ordering: .relaxed) }

    var rowsRead: Int { rows.load(ordering: .relaxed) }

    /// Notes a statistics query answered from the views.
    func viewedStatistics() { viewed.add(1, ordering: .relaxed) }

    /// How many statistics queries the views answered.
    var statisticsFromViews: Int { viewed.load(ordering: .relaxed) }
}

extension HKError {
    /// `error` as an ``HKError``: itself, or `errorDatabaseInaccessible`
    /// with its description for storage and log failures.
    static func wrapping(_ error: any Error) -> HKError {
        if let error = error as? HKError { return error }
        if error is CancellationError { return HKError(.errorUserCanceled, "the operation was cancelled") }
        return HKError(.errorDatabaseInaccessible, "the store failed: \(error)", underlyingError: error)
    }
}
