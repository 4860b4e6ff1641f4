import Foundation
import Glibc
import LMDB
import Logging

/// The log's single writer: a dedicated thread that group-commits queued
/// batches.
///
/// Callers enqueue a batch and suspend. The thread takes everything queued
/// (up to the configured budget), runs it in one LMDB write transaction with
/// one fsync, publishes the new state, resumes every caller, and then rings
/// the subscribers. While it commits, new batches queue up for the next
/// group: the slower the disk, the bigger the groups.
///
/// A dedicated thread rather than the cooperative pool, because a commit
/// blocks on fsync, and an LMDB write transaction must begin and end on one
/// thread. The thread ends after ``EventLog/Configuration/writerIdleTimeout``
/// without work and the next write starts another, so an idle log holds no
/// thread.
final class LogWriter: @unchecked Sendable {
    // @unchecked: `queue`, `isClosing` and `exitWaiters` are guarded by
    // `condition`; `state` is touched only by the writer thread (and by
    // `init`, before the thread starts).

    struct Request {
        let work: WriteWork
        let entryCount: Int
        let byteCount: Int
        let continuation: CheckedContinuation<WriteOutcome, any Error>
    }

    private let condition = NSCondition()
    private var queue: [Request] = []
    private var isClosing = false
    private var hasExited = false
    /// Whether a thread runs the writer now (it ends when idle).
    private var isRunning = false
    /// How many threads have run the writer (tests watch it park and wake).
    private var threadsStarted = 0
    private var exitWaiters: [CheckedContinuation<Void, Never>] = []

    private var state: WriterState
    /// Whether the log records the projections as possibly unsynced (see
    /// ``ProjectionStore``): as the open left it, then as commits and
    /// settles leave it.
    private var projectionsDirty: Bool
    /// Released when the thread exits, so that closing the log closes the store.
    private var openStore: OpenStore?
    let databases: LogDatabases
    let identity: StoreIdentity
    let projections: [any Projection]
    /// Seals the entries this writer appends; `nil` for a store that does
    /// not seal.
    let sealer: EntrySealer?
    private let configuration: EventLog.Configuration
    private let published: PublishedHead
    private let subscribers: HeadSubscribers
    private let counters: LogCounters
    /// The origin numbers readers share; updated after each commit.
    private let origins: OriginNumbers

    init(
        state: WriterState,
        store: OpenStore,
        databases: LogDatabases,
        identity: StoreIdentity,
        projections: [any Projection],
        configuration: EventLog.Configuration,
        published: PublishedHead,
        subscribers: HeadSubscribers,
        counters: LogCounters,
        origins: OriginNumbers,
        projectionsDirty: Bool,
        sealer: EntrySealer?
    ) {
        self.sealer = sealer
        self.origins = origins
        self.projectionsDirty = projectionsDirty
        self.state = state
        self.openStore = store
        self.databases = databases
        self.identity = identity
        self.projections = projections
        self.configuration = configuration
        self.published = published
        self.subscribers = subscribers
        self.counters = counters
    }

    /// Starts the writer thread when it has work from the start: the
    /// projections the open left unsynced, to sync once idle. Otherwise
    /// the first write starts it, as after a park (a store opened to be
    /// read runs no thread).
    func start() {
        guard projectionsDirty else { return }
        condition.lock()
        isRunning = true
        threadsStarted += 1
        condition.unlock()
        startThread()
    }

    /// Whether a thread runs the writer now, and how many have so far.
    var threadState: (running: Bool, started: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (isRunning, threadsStarted)
    }

    /// Starts a detached POSIX thread running ``run()``. Not Foundation's
    /// `Thread`: a parked writer starts and ends threads often, and
    /// Foundation's thread objects, made and freed at that rate beside
    /// `Process.run()`, crashed test runs inside Foundation.
    private func startThread() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread: pthread_t = 0
        let result = pthread_create(
            &thread,
            nil,
            { context in
                let writer = Unmanaged<LogWriter>.fromOpaque(context!).takeRetainedValue()
                writer.run()
                return nil
            },
            context
        )
        // Without a thread nothing is ever committed: fail loudly, as a
        // full process table leaves nothing better to do.
        precondition(result == 0, "the log writer's thread could not start: \(String(cString: strerror(result)))")
        pthread_detach(thread)
    }

    /// Starts a thread if none runs; call with `condition` locked. Returns
    /// whether the caller must start it (after unlocking).
    private func wake() -> Bool {
        guard !isRunning, !hasExited else { return false }
        isRunning = true
        threadsStarted += 1
        return true
    }

    /// Queues `work` and returns its outcome once it is durable.
    func submit(_ work: WriteWork, entryCount: Int, byteCount: Int) async throws -> WriteOutcome {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            guard !isClosing else {
                condition.unlock()
                continuation.resume(throwing: LogError(.closed, "the log was closed"))
                return
            }
            queue.append(Request(work: work, entryCount: entryCount, byteCount: byteCount, continuation: continuation))
            let starts = wake()
            condition.signal()
            condition.unlock()
            if starts { startThread() }
        }
    }

    /// Stops accepting work; the thread commits what is queued and exits.
    func shutdown() {
        condition.lock()
        isClosing = true
        let starts = wake()  // an idle writer's thread had ended: one more ends it for good
        condition.signal()
        condition.unlock()
        if starts { startThread() }
    }

    /// Waits until the thread has exited.
    func waitForExit() async {
        await withCheckedContinuation { continuation in
            condition.lock()
            if hasExited {
                condition.unlock()
                continuation.resume()
            } else {
                exitWaiters.append(continuation)
                condition.unlock()
            }
        }
    }

    private func run() {
        while true {
            switch nextStep() {
            case .commit(let group): commit(group)
            case .park: return  // idle: the next write starts a thread
            case .exit:
                settleProjections()
                syncUnlessDurable()
                return finish()
            }
        }
    }

    /// Releases the store and wakes those waiting for the writer to end.
    private func finish() {
        openStore = nil
        condition.lock()
        hasExited = true
        let waiters = exitWaiters
        exitWaiters = []
        condition.unlock()
        for waiter in waiters { waiter.resume() }
    }

    /// What the writer's thread does next.
    private enum Step {
        /// Commit a group of requests.
        case commit([Request])
        /// End the thread: no work came for the idle time.
        case park
        /// End the writer: closing, and everything queued is committed.
        case exit
    }

    /// Waits for work and takes a group of requests within the budget;
    /// parks the thread after the idle time without work, or ends the
    /// writer once closing and drained.
    private func nextStep() -> Step {
        condition.lock()
        defer { condition.unlock() }
        let idle = configuration.writerIdleTimeout.map { Date(timeIntervalSinceNow: $0.timeInterval) }
        while queue.isEmpty && !isClosing {
            guard let idle else {
                condition.wait()
                continue
            }
            if !condition.wait(until: idle) && queue.isEmpty && !isClosing {
                if projectionsDirty {
                    // Still this writer's turn (a write meanwhile queues, and
                    // starts no thread): sync the projections, then wait on.
                    condition.unlock()
                    settleProjections()
                    condition.lock()
                    continue
                }
                isRunning = false
                return .park
            }
        }
        guard !queue.isEmpty else { return .exit }
        var entries = 0
        var bytes = 0
        var taken = 0
        for request in queue {
            if taken > 0
                && (entries + request.entryCount > configuration.maximumEntriesPerCommit
                    || bytes + request.byteCount > configuration.maximumBytesPerCommit)
            {
                break
            }
            entries += request.entryCount
            bytes += request.byteCount
            taken += 1
        }
        let group = Array(queue[..<taken])
        queue.removeFirst(taken)
        return .commit(group)
    }

    /// A request of a group failed: the group's transaction is abandoned and
    /// the group runs again without it.
    private struct RequestFailed: Error {
        let index: Int
        let error: any Error
    }

    /// Commits one group in one write transaction and resumes its callers.
    ///
    /// The requests run one after another in the same transaction. When one
    /// fails (a projection or precondition throws), the transaction is
    /// abandoned, that caller gets its error, and the others run again
    /// without it: a failing batch never sinks the rest, and the common
    /// case pays for no nested transactions.
    private func commit(_ group: [Request]) {
        if configuration.keepsZerosAhead, let environment = openStore?.environment {
            Self.preallocate(environment, logger: configuration.logger)
        }
        let start = state
        var pending = group
        while !pending.isEmpty {
            do {
                let running = pending
                // What the last attempt computed: committed to the log even
                // when only the projections' commit fails.
                var attempt: ([WriteOutcome], [CommittedBatch?], WriterState)?
                var (outcomes, ranges, final): ([WriteOutcome], [CommittedBatch?], WriterState)
                do {
                    (outcomes, ranges, final) = try openStore!.environment.write { txn in
                        let result = try run(running, from: start, in: txn)
                        attempt = result
                        return result
                    }
                } catch let error as LMDBError where error.isCompanionCommitFailure {
                    guard let attempt else { throw error }
                    // The entries are durable; the projections still hold
                    // what they held before, and catch up below.
                    configuration.logger.info(
                        "the projections' commit failed after the log's; catching them up",
                        metadata: ["anchorage.log.error": "\(error)"]
                    )
                    (outcomes, ranges, final) = attempt
                    final.projected = start.projected
                }
                state = final
                projectionsDirty = true
                // Projections that missed this commit catch up before anyone
                // hears of it: callers read their writes, and subscribers
                // woken now find the projections there (none would be woken
                // again for a catch-up alone).
                if state.projected < state.head { catchUpProjections() }
                if final.origins.count != start.origins.count { origins.publish(final.origins) }
                counters.recordCommit(requests: running.count, entries: Int(final.head - start.head))
                if final.head != start.head { published.set(final.head) }
                for (request, outcome) in zip(running, outcomes) {
                    request.continuation.resume(returning: outcome)
                }
                if final.head != start.head {
                    subscribers.publish(anchor(final.head), batches: ranges.compactMap { $0 })
                }
                return
            } catch let failed as RequestFailed {
                // LMDB undid the transaction; `state` is still `start`.
                pending[failed.index].continuation.resume(throwing: failed.error)
                pending.remove(at: failed.index)
            } catch {
                configuration.logger.debug(
                    "commit failed",
                    metadata: ["anchorage.log.requests": "\(pending.count)", "anchorage.log.error": "\(error)"]
                )
                for request in pending { request.continuation.resume(throwing: error) }
                reloadState()
                return
            }
        }
    }

    /// Applies the entries the projections missed (their commit failed
    /// after the log's) in a commit of its own; on failure the next commit
    /// tries again.
    private func catchUpProjections() {
        guard let environment = openStore?.environment else { return }
        do {
            let (_, _, final) = try environment.write { txn in try run([], from: state, in: txn) }
            state = final
        } catch {
            configuration.logger.info(
                "could not catch the projections up; the next commit tries again",
                metadata: ["anchorage.log.error": "\(error)"]
            )
        }
    }

    /// Syncs the projections' file and records them clean in the log, so
    /// that a machine stopping now costs no rebuild (see
    /// ``ProjectionStore``). Runs on the writer's thread while it is idle
    /// or closing; a failure leaves them recorded dirty.
    private func settleProjections() {
        guard projectionsDirty, let environment = openStore?.environment else { return }
        do {
            try environment.companion?.sync()
            counters.recordSettle()
            try environment.writeWithoutCompanion { txn in
                try txn.put(ProjectionStore.State.clean.bytes, forKey: ProjectionStore.stateKey, in: databases.meta)
            }
            projectionsDirty = false
        } catch {
            configuration.logger.info(
                "could not sync the projections",
                metadata: ["anchorage.log.error": "\(error)"]
            )
        }
    }

    /// Flushes the store's file when its last commit's meta page was not
    /// (``EventLog/Durability/noMetaSync``): a log closed normally then has
    /// every commit on disk. Runs on the writer's thread as it closes.
    private func syncUnlessDurable() {
        guard configuration.durability == .noMetaSync, let environment = openStore?.environment else { return }
        do {
            try environment.sync(force: true)
            counters.recordCloseSync()
        } catch {
            configuration.logger.warning(
                "could not flush the store as it closed: the last commits may be lost if the machine stops",
                metadata: ["anchorage.log.error": "\(error)"]
            )
        }
    }

    /// Rereads the writer's state from the store after a failed commit.
    ///
    /// LMDB undoes a failed commit, so the state normally stays as it was;
    /// rereading also covers a commit that reached the disk but reported
    /// an error (a failing final flush), so the next batch extends the log
    /// that is really there.
    private func reloadState() {
        guard let store = openStore else { return }
        do {
            let stored = try store.environment.read { txn in
                try WriterState.load(identity: identity, databases: databases, in: txn)
            }
            state = stored
            let previous = published.value
            if stored.head != previous {
                published.set(stored.head)
                // A commit that reached the disk despite its error: its callers
                // saw a failure, but the entries are there; announce them as one batch.
                subscribers.publish(
                    anchor(stored.head),
                    batches: batch(from: previous, to: stored.head).map { [$0] } ?? []
                )
            }
        } catch {
            configuration.logger.info(
                "could not reread the log's state after a failed commit",
                metadata: ["anchorage.log.error": "\(error)"]
            )
        }
    }

    /// Runs every request of a group inside `txn`, in order. A single
    /// request's error is rethrown as it is; in a larger group it becomes
    /// ``RequestFailed`` so that ``commit(_:)`` can run the others again.
    private func run(
        _ group: [Request],
        from start: WriterState,
        in txn: borrowing WriteTransaction
    ) throws -> ([WriteOutcome], [CommittedBatch?], WriterState) {
        var working = start
        if working.projected < working.head {
            // An earlier commit of the projections failed after the log's.
            _ = try ProjectionReplay.apply(
                projections,
                after: working.projected,
                databases: databases,
                decoder: EntryDecoder(layout: identity.layout, origins: working.origins, sealer: sealer),
                in: txn
            )
        }
        var outcomes: [WriteOutcome] = []
        var ranges: [CommittedBatch?] = []
        outcomes.reserveCapacity(group.count)
        ranges.reserveCapacity(group.count)
        // A new context for every attempt: one abandoned leaves nothing behind.
        let context = ProjectionContext()
        for (index, request) in group.enumerated() {
            let before = working.head
            do {
                outcomes.append(try perform(request.work, state: &working, context: context, in: txn))
            } catch {
                if group.count == 1 { throw error }
                throw RequestFailed(index: index, error: error)
            }
            ranges.append(batch(from: before, to: working.head))
        }
        for projection in projections { try projection.finish(context: context, in: txn) }
        if working.projected != working.head {
            try ProjectionStore.setApplied(working.head, meta: databases.projectionMeta!, in: txn)
            working.projected = working.head
        }
        if !projectionsDirty {
            try txn.put(
                ProjectionStore.State.dirty(boot: ProjectionStore.bootID).bytes,
                forKey: ProjectionStore.stateKey,
                in: databases.meta
            )
        }
        try linkHead(&working, in: txn)
        try saveVersionVector(working, comparedWith: start, in: txn)
        return (outcomes, ranges, working)
    }

    /// The batch of entries after `previous` up to `head`, if any.
    private func batch(from previous: UInt64, to head: UInt64) -> CommittedBatch? {
        head > previous ? CommittedBatch(first: anchor(previous + 1), last: anchor(head)) : nil
    }

    func anchor(_ seq: UInt64) -> Anchor {
        Anchor(storeID: identity.storeID, incarnation: identity.incarnation, seq: seq)
    }
}
