import Foundation
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
    /// Released when the thread exits, so that closing the log closes the store.
    private var openStore: OpenStore?
    private let databases: LogDatabases
    private let identity: StoreIdentity
    private let projections: [any Projection]
    private let configuration: EventLog.Configuration
    private let published: PublishedHead
    private let subscribers: HeadSubscribers
    private let counters: LogCounters

    init(
        state: WriterState,
        store: OpenStore,
        databases: LogDatabases,
        identity: StoreIdentity,
        projections: [any Projection],
        configuration: EventLog.Configuration,
        published: PublishedHead,
        subscribers: HeadSubscribers,
        counters: LogCounters
    ) {
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

    /// Starts the writer thread.
    func start() {
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

    private func startThread() {
        let thread = Thread { [self] in run() }
        thread.name = "anchorage.log.writer"
        thread.start()
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
            case .exit: return finish()
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
        let start = state
        var pending = group
        while !pending.isEmpty {
            do {
                let running = pending
                let (outcomes, ranges, final) = try openStore!.environment.write { txn in
                    try run(running, from: start, in: txn)
                }
                state = final
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

    // MARK: - Work

    private func perform(
        _ work: WriteWork,
        state: inout WriterState,
        context: ProjectionContext,
        in txn: borrowing WriteTransaction
    ) throws -> WriteOutcome {
        switch work {
        case .append(let events):
            return .appended(try append(events, state: &state, context: context, in: txn))
        case .apply(let entries, let checkpoint, let from):
            if let from, let checkpoint { try checkContinuity(from: from, checkpoint: checkpoint, in: txn) }
            return .applied(try apply(entries, checkpoint: checkpoint, state: &state, context: context, in: txn))
        case .rebuildProjections(let progress):
            return .rebuilt(
                entries: try ProjectionReplay.rebuild(projections, databases: databases, in: txn, progress: progress)
            )
        case .checkProjections:
            let before = try projections.map { try ProjectionReplay.digests(of: $0, in: txn) }
            _ = try ProjectionReplay.rebuild(projections, databases: databases, in: txn)
            for (projection, stored) in zip(projections, before) {
                let replayed = try ProjectionReplay.digests(of: projection, in: txn)
                for (database, (was, now)) in zip(projection.databases, zip(stored, replayed)) where was != now {
                    throw ProjectionCheckResult(
                        disagreement: EventLog.ProjectionDisagreement(
                            projection: projection.name,
                            database: database.name ?? "(unnamed)"
                        )
                    )
                }
            }
            // Undo the replay: the transaction is rolled back.
            throw ProjectionCheckResult(disagreement: nil)
        case .purge(let seqs):
            return .purged(try purge(seqs, in: txn))
        case .setCursors(let changes):
            for (name, value) in changes {
                if let value {
                    try txn.put(value, forKey: Array(name.utf8), in: databases.cursors)
                } else {
                    _ = try txn.removeValue(forKey: Array(name.utf8), in: databases.cursors)
                }
            }
            return .cursorsSet
        case .appendLocal(let batch):
            return .localAppended(try batch.store(in: databases, txn: txn))
        }
    }

    private func append(
        _ prepared: PreparedEvents,
        state: inout WriterState,
        context: ProjectionContext,
        in txn: borrowing WriteTransaction
    ) throws -> [Anchor] {
        let input = try prepared.precondition?(txn) ?? nil
        let first = state.head + 1
        var stored: [LogEntry] = []
        stored.reserveCapacity(projections.isEmpty ? 0 : prepared.events.count)
        for (event, digest) in zip(prepared.events, prepared.digests) {
            state.ownCounter += 1
            try store(
                EntryFormat.Header(
                    operation: event.operation,
                    kind: event.kind,
                    dot: Dot(origin: identity.originID, counter: state.ownCounter),
                    timestamp: prepared.timestamp,
                    id: event.id,
                    payloadDigest: digest,
                    storedPayloadLength: event.payload.count,
                    isPurged: false
                ),
                payload: event.operation == .save ? EntryPayload(event.payload) : nil,
                state: &state,
                collecting: &stored,
                in: txn
            )
        }
        try project(stored, input: input, context: context, in: txn)
        return (first...state.head).map(anchor)
    }

    /// Rewrites each save at `seqs` as its header alone, flagged purged:
    /// the payload is gone, its digest and the entry's link stay, so the
    /// chain still verifies. Deletes and purged saves are left as they are.
    private func purge(_ seqs: [UInt64], in txn: borrowing WriteTransaction) throws -> Int {
        var purged = 0
        for seq in seqs {
            let header = try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value -> [UInt8]? in
                let (operation, isPurged) = try EntryFormat.checkedOperation(seq: seq, bytes: value)
                guard operation == .save, !isPurged else { return nil }
                var header = Array(value[0..<EntryFormat.headerSize])
                header[EntryFormat.flagsOffset] |= EntryFormat.purgedFlag
                header.replaceSubrange(
                    EntryFormat.lengthOffset..<EntryFormat.lengthOffset + 4,
                    with: [0, 0, 0, 0]
                )
                return header
            }
            guard let header = header ?? nil else { continue }
            try txn.put(header, forKey: seq.bigEndianBytes, in: databases.log)
            purged += 1
        }
        return purged
    }

    /// Refuses a batch that does not start where this log's checkpoint for
    /// the peer ends: a delayed, repeated or reordered batch, whose
    /// checkpoint would skip entries between the two.
    private func checkContinuity(from: UInt64, checkpoint: Anchor, in txn: borrowing WriteTransaction) throws {
        let stored =
            try txn.withValue(forKey: checkpoint.storeID.uuid.bytes, in: databases.checkpoints) { value in
                value.count == 16
                    && UInt64(bigEndian: value.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
                        == checkpoint.incarnation
                    ? UInt64(bigEndian: value.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) : 0
            } ?? 0
        guard stored == from else {
            throw LogError(
                .checkpointMoved,
                "the batch from peer \(checkpoint.storeID) starts after its entry \(from), but this log has applied "
                    + "its entries up to \(stored); pull again from there"
            )
        }
    }

    private func apply(
        _ entries: [LogEntry],
        checkpoint: Anchor?,
        state: inout WriterState,
        context: ProjectionContext,
        in txn: borrowing WriteTransaction
    ) throws -> ApplyResult {
        var applied = 0
        var stored: [LogEntry] = []
        for entry in entries {
            let origin = entry.dot.origin
            let known = state.counter(of: origin, own: identity.originID)
            if entry.dot.counter <= known { continue }
            guard entry.dot.counter == known + 1 else {
                throw LogError(
                    .originGap,
                    "entry \(entry.dot) cannot be applied: this log holds \(origin)'s entries up to \(known) only; "
                        + "apply the missing ones first",
                    seq: entry.seq
                )
            }
            if origin == identity.originID {
                state.ownCounter = entry.dot.counter
            } else {
                state.versionVector[origin] = entry.dot.counter
            }
            try store(
                EntryFormat.Header(
                    operation: entry.operation,
                    kind: entry.kind,
                    dot: entry.dot,
                    timestamp: entry.timestamp,
                    id: entry.id,
                    payloadDigest: entry.payloadDigest,
                    storedPayloadLength: entry.payload?.count ?? 0,
                    isPurged: entry.isPurged
                ),
                payload: entry.payload,
                state: &state,
                collecting: &stored,
                in: txn
            )
            applied += 1
        }
        try project(stored, input: nil, context: context, in: txn)
        if let checkpoint {
            var value = checkpoint.incarnation.bigEndianBytes
            value += checkpoint.seq.bigEndianBytes
            try txn.put(value, forKey: checkpoint.storeID.uuid.bytes, in: databases.checkpoints)
        }
        return ApplyResult(applied: applied, skipped: entries.count - applied, head: anchor(state.head))
    }

    /// Runs every projection on a batch's stored entries, in the order of
    /// what they consume, with the batch's input from its precondition.
    private func project(
        _ entries: [LogEntry],
        input: (any Sendable)?,
        context: ProjectionContext,
        in txn: borrowing WriteTransaction
    ) throws {
        guard !entries.isEmpty else { return }
        context.beginBatch(input: input)
        for projection in projections {
            try projection.apply(entries, context: context, in: txn)
        }
    }

    /// Appends one entry at `state.head + 1` and links it; collects the
    /// entry for the projections when there are any.
    private func store(
        _ header: EntryFormat.Header,
        payload: EntryPayload?,
        state: inout WriterState,
        collecting entries: inout [LogEntry],
        in txn: borrowing WriteTransaction
    ) throws {
        let seq = state.head + 1
        let previous = state.lastLink
        let payloadBytes = payload ?? EntryPayload([])
        let link = try withUnsafeTemporaryAllocation(byteCount: EntryFormat.headerSize, alignment: 8) { encoded in
            EntryFormat.writeHeader(header, into: encoded)
            let link = EntryFormat.link(previous: previous, entry: UnsafeRawBufferPointer(encoded))
            link.store(into: encoded, at: EntryFormat.linkOffset)
            try put(seq: seq, header: UnsafeRawBufferPointer(encoded), payload: payloadBytes, in: txn)
            return link
        }
        state.head = seq
        state.lastLink = link
        guard !projections.isEmpty else { return }
        entries.append(
            LogEntry(
                seq: seq,
                dot: header.dot,
                timestamp: header.timestamp,
                operation: header.operation,
                kind: header.kind,
                id: header.id,
                payload: payload,
                payloadDigest: header.payloadDigest,
                link: link
            )
        )
    }

    /// Writes an encoded header and its payload under `seq`, in place.
    private func put(
        seq: UInt64,
        header: UnsafeRawBufferPointer,
        payload: EntryPayload,
        in txn: borrowing WriteTransaction
    ) throws {
        try payload.withUnsafeBytes { payload in
            try withUnsafeBytes(of: seq.bigEndian) { key in
                try txn.put(
                    reservingCount: header.count + payload.count,
                    forKey: key,
                    in: databases.log,
                    options: .append
                ) { buffer in
                    buffer.copyMemory(from: header)
                    UnsafeMutableRawBufferPointer(rebasing: buffer[header.count...]).copyMemory(from: payload)
                }
            }
        }
    }

    /// Writes the version-vector rows that changed during the group.
    private func saveVersionVector(
        _ working: WriterState,
        comparedWith start: WriterState,
        in txn: borrowing WriteTransaction
    ) throws {
        if working.ownCounter != start.ownCounter {
            try txn.put(working.ownCounter.bigEndianBytes, forKey: identity.originID.uuid.bytes, in: databases.origins)
        }
        for (origin, counter) in working.versionVector where start.versionVector[origin] != counter {
            try txn.put(counter.bigEndianBytes, forKey: origin.uuid.bytes, in: databases.origins)
        }
    }
}
