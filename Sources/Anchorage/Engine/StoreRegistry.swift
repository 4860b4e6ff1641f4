import AnchorageLog
import AnchorageModel
import Dispatch
import Foundation
import Synchronization

/// The engines of this process, one per store directory: a second
/// `HKHealthStore` of a directory shares the first one's engine, and a
/// directory being opened is opened once, by one thread, while the others
/// wait for it — without holding up stores of other directories.
enum StoreRegistry {
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
            let holder = Mutex<(HealthIndex, StatisticsViews)?>(nil)
            let projections: ProjectionFactory = { txn in
                let index = try HealthIndex(in: txn)
                let views = try StatisticsViews(in: txn)
                holder.withLock { $0 = (index, views) }
                return configuration.maintainsStatisticsViews ? [index, views] : [index]
            }
            let log: EventLog
            if configuration.readOnly {
                log = try EventLog.openForReading(
                    at: directory,
                    configuration: configuration.log,
                    projections: projections
                )
            } else {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                log = try EventLog.open(at: directory, configuration: configuration.log, projections: projections)
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
                "\(error.message); one process writes a store at a time (others can open it with Configuration.readOnly)",
                underlyingError: error
            )
        } catch let error as LogError where error.code == .noStore || error.code == .needsWriter {
            throw HKError(.errorDatabaseInaccessible, error.message, underlyingError: error)
        } catch {
            throw HKError(
                .errorDatabaseInaccessible,
                "the store at \(path) could not be opened: \(error)",
                underlyingError: error
            )
        }
    }

    /// Removes `engine` from the registry, if it is still the engine of its
    /// directory.
    static func forget(_ engine: StoreEngine) {
        registry.withLock { slots in
            if case .open(let weak)? = slots[engine.path], weak.engine === engine {
                slots.removeValue(forKey: engine.path)
            }
        }
    }
}
