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
/// opening and sharing (this file), access and grants (`+Access`,
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

    /// A directory's place in the registry: its engine, or an open under way
    /// in another thread (entered until that open is done).
    private enum Slot: @unchecked Sendable {
        // @unchecked: DispatchGroup is thread-safe.
        case open(WeakEngine)
        case opening(DispatchGroup)
    }

    /// The engines of this process by standardized directory path. The lock
    /// is held only to look up or change a slot, never during an open, so
    /// a long open of one store does not hold up the others.
    private static let registry = Mutex<[String: Slot]>([:])

    /// The engine of `directory` if this process has it open, with one more
    /// handle taken on it; `nil` otherwise.
    static func existing(directory: URL) -> StoreEngine? {
        let path = directory.standardizedFileURL.path
        return registry.withLock { slots in
            guard case .open(let weak)? = slots[path], let engine = weak.engine, engine.acquire() else { return nil }
            return engine
        }
    }

    /// The engine of `directory`: the one already open in this process, or a
    /// newly opened one. Blocks while another thread opens the same
    /// directory, then shares what it opened.
    static func open(directory: URL, configuration: HKHealthStore.Configuration) throws(HKError) -> StoreEngine {
        let path = directory.standardizedFileURL.path
        enum Step {
            case use(StoreEngine)
            case wait(DispatchGroup)
            case open(DispatchGroup)
        }
        while true {
            let step = registry.withLock { slots -> Step in
                switch slots[path] {
                case .open(let weak)?:
                    if let engine = weak.engine, engine.acquire() { return .use(engine) }
                case .opening(let group)?:
                    return .wait(group)
                case nil:
                    break
                }
                let group = DispatchGroup()
                group.enter()
                slots[path] = .opening(group)
                return .open(group)
            }
            switch step {
            case .use(let engine):
                return engine
            case .wait(let group):
                group.wait()
            case .open(let group):
                defer { group.leave() }
                do throws(HKError) {
                    let engine = try openNew(directory: directory, configuration: configuration, path: path)
                    registry.withLock { $0[path] = .open(WeakEngine(engine)) }
                    return engine
                } catch {
                    registry.withLock { $0[path] = nil }
                    throw error
                }
            }
        }
    }

    /// Called with a directory's path just before it is opened, on the
    /// opening thread: a seam for tests that hold an open up.
    static let willOpen = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Opens the log and its projections; no lock of the registry is held.
    private static func openNew(
        directory: URL,
        configuration: HKHealthStore.Configuration,
        path: String
    ) throws(HKError) -> StoreEngine {
        willOpen.withLock { $0 }?(path)
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
            return StoreEngine(log: log, index: index, views: views, configuration: configuration, path: path)
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
        Self.registry.withLock { slots in
            if case .open(let weak)? = slots[path], weak.engine === self { slots.removeValue(forKey: path) }
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
