public import AnchorageCore
import Synchronization

/// Publishes a node's store updates to its registry and serves them
/// (`GET /v1/store-updates`): stores report each move of their log with
/// ``changed(_:anchor:)``, which only notes it; one task commits what was
/// noted since its last commit in one registry transaction (group commit),
/// then wakes the consumers waiting for it.
///
/// ```swift
/// let feed = StoreUpdatesFeed(registry: registry)
/// Task { await feed.run() }
/// feed.changed(name, anchor: log.head.stringValue)
/// let page = try await feed.waitForUpdates(after: cursor, limit: 100, timeout: .seconds(30))
/// ```
///
/// A consumer that has seen everything costs one comparison per wake-up,
/// whatever the number of stores; a page costs its updates.
public final class StoreUpdatesFeed: Sendable {
    public let registry: NodeRegistry
    private let clock: StoreClock
    /// Told of each failure to commit or compact (the node logs it).
    private let report: @Sendable (ServiceError) -> Void
    private let state = Mutex(State())

    private struct State {
        /// Each store's newest anchor not yet committed.
        var pending: [StoreName: String] = [:]
        /// The order stores were noted in, so updates keep it.
        var order: [StoreName] = []
        /// Stores to mark open or closed, in the order asked, and who waits
        /// for each mark to be durable.
        var marks: [(store: StoreName, open: Bool)] = []
        var waiting: [CheckedContinuation<Void, any Error>] = []
        /// The stores marked open in the registry (as last committed);
        /// `nil` until read.
        var marked: Set<StoreName>?
        /// The feed's head, once known.
        var head: UInt64?
        var doorbell: AsyncStream<Void>.Continuation?
        var nextID = 0
        var watchers: [Int: AsyncStream<UInt64>.Continuation] = [:]
    }

    private let doorbell: AsyncStream<Void>

    public init(
        registry: NodeRegistry,
        clock: StoreClock = .continuous,
        report: @escaping @Sendable (ServiceError) -> Void = { _ in }
    ) {
        self.registry = registry
        self.clock = clock
        self.report = report
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        doorbell = stream
        state.withLock { $0.doorbell = continuation }
    }

    /// Notes that `store`'s log now ends at `anchor` (its text form); the
    /// update is committed by ``run()`` soon after, with others noted
    /// meanwhile. Never blocks.
    public func changed(_ store: StoreName, anchor: String) {
        let bell = state.withLock { state -> AsyncStream<Void>.Continuation? in
            if state.pending.updateValue(anchor, forKey: store) == nil { state.order.append(store) }
            return state.doorbell
        }
        bell?.yield()
    }

    /// Commits what was noted until cancelled: each commit takes
    /// everything noted while the one before it ran. A failed commit is
    /// tried again a second later, with what was noted since.
    public func run() async {
        for await _ in doorbell {
            while true {
                do {
                    try commitPending()
                    break
                } catch {
                    report(error)
                    do { try await clock.sleep(.seconds(1)) } catch { return }
                }
            }
        }
    }

    /// Marks `store` open in the registry before anything can write to it
    /// (so that after a crash the node checks it), unless it is marked
    /// already. Stores opening together share one commit.
    public func markOpen(_ store: StoreName) async throws {
        let known = try markedStores()
        let needed = state.withLock { state in
            if state.marked == nil { state.marked = known }
            let last = state.marks.last { $0.store == store }
            return !(state.marked!.contains(store) && last?.open != false)
        }
        guard needed else { return }
        try await withCheckedThrowingContinuation { continuation in
            state.withLock { state in
                state.marks.append((store, true))
                state.waiting.append(continuation)
            }
            try? commitPending()
        }
    }

    private func markedStores() throws(ServiceError) -> Set<StoreName> {
        if let known = state.withLock({ $0.marked }) { return known }
        return Set(try registry.storesMarkedOpen())
    }

    /// Commits what was noted, now (a store closing, a test), with the
    /// marks asked for: one registry commit, whoever asked.
    public func commitPending() throws(ServiceError) {
        let (batch, marks, waiting) = state.withLock { state in
            let batch = state.order.compactMap { name in state.pending[name].map { (store: name, anchor: $0) } }
            state.pending.removeAll(keepingCapacity: true)
            state.order.removeAll(keepingCapacity: true)
            defer {
                state.marks.removeAll()
                state.waiting.removeAll()
            }
            return (batch, state.marks, state.waiting)
        }
        guard !batch.isEmpty || !marks.isEmpty else { return }
        let head: UInt64
        do {
            head = try registry.commitStoreUpdates(batch, marks: marks)
        } catch {
            // Put back what nothing newer replaced, for the next try.
            state.withLock { state in
                for (store, anchor) in batch where state.pending[store] == nil {
                    state.pending[store] = anchor
                    state.order.append(store)
                }
                state.marks = marks.filter { !$0.open } + state.marks
            }
            for continuation in waiting { continuation.resume(throwing: error) }
            throw error
        }
        state.withLock { state in
            for (store, open) in marks {
                if open { state.marked?.insert(store) } else { state.marked?.remove(store) }
            }
        }
        for continuation in waiting { continuation.resume() }
        announce(head)
        if head / 10_000 != (head - UInt64(batch.count)) / 10_000 {
            do {
                while try registry.compactStoreUpdates() > 0 {}
            } catch {
                report(error)
            }
        }
    }

    /// A store closing: commits its last anchor (when known) and, with
    /// it, marks the store closed (everything it had is recorded). A
    /// store whose anchor is unknown stays marked, to be checked at the
    /// next start.
    public func closing(_ store: StoreName, anchor: String?) {
        guard let anchor else { return }
        changed(store, anchor: anchor)
        state.withLock { $0.marks.append((store, false)) }
        do {
            try commitPending()
        } catch {
            report(error)
        }
    }

    /// Announces a deletion's update (the registry wrote it, and removed
    /// the store's mark) to waiting consumers.
    public func deletionRecorded(_ store: StoreName) {
        state.withLock { _ = $0.marked?.remove(store) }
        if let head = try? registry.storeUpdatesHead() { announce(head) }
    }

    private func announce(_ head: UInt64) {
        // Every watcher hears every commit's head (each compares it with its
        // own cursor): a head read from the registry meanwhile must not
        // swallow the ring.
        let watchers = state.withLock { state -> [AsyncStream<UInt64>.Continuation] in
            state.head = max(state.head ?? 0, head)
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield(head) }
    }

    /// The feed's head: the last update's position.
    public func head() throws(ServiceError) -> UInt64 {
        if let head = state.withLock({ $0.head }) { return head }
        let head = try registry.storeUpdatesHead()
        state.withLock { $0.head = max($0.head ?? 0, head) }
        return head
    }

    /// The cursor of the feed's head (`since=now`).
    public func headCursor() throws(ServiceError) -> StoreUpdatesCursor {
        StoreUpdatesCursor(registry: try registry.storeUpdatesID(), seq: try head())
    }

    /// Checks that `cursor` is one of this feed's.
    ///
    /// - Throws: ``ServiceError`` `.invalidCursor` for another node's
    ///   cursor, or one past the head (a registry restored from an older
    ///   backup: reading from it would skip updates).
    public func check(_ cursor: StoreUpdatesCursor) throws(ServiceError) {
        guard cursor.registry == (try registry.storeUpdatesID()) else {
            throw ServiceError(.invalidCursor, "the cursor is another node's store-updates cursor")
        }
        let head = try registry.storeUpdatesHead()
        guard cursor.seq <= head else {
            throw ServiceError(
                .invalidCursor,
                "the cursor is past this node's last update (\(head)): was the node restored from an older backup?"
            )
        }
    }

    /// The page after `cursor`, at once when it holds updates; otherwise
    /// held until an update comes, `timeout` passes on the feed's clock,
    /// or `stop` yields. `nil` cursor: from the beginning.
    public func waitForUpdates(
        after cursor: StoreUpdatesCursor?,
        limit: Int,
        timeout: Duration,
        until stop: AsyncStream<Void>? = nil
    ) async throws -> StoreUpdatesPage {
        let id = try registry.storeUpdatesID()
        let after = cursor?.seq ?? 0
        if let cursor { try check(cursor) }
        guard timeout > .zero else { return try page(after: after, limit: limit, id: id) }
        // Watching before reading: no commit can fall between the two.
        let heads = watch()
        let first = try page(after: after, limit: limit, id: id)
        guard first.updates.isEmpty else { return first }
        let woken = await clock.waitForFirst(of: heads, where: { $0 > after }, timeout: timeout, until: stop)
        guard woken else { return first }
        return try page(after: after, limit: limit, id: id)
    }

    private func page(after: UInt64, limit: Int, id: String) throws(ServiceError) -> StoreUpdatesPage {
        let (updates, hasMore) = try registry.storeUpdates(after: after, limit: limit)
        return StoreUpdatesPage(
            updates: updates,
            hasMore: hasMore,
            newCursor: StoreUpdatesCursor(registry: id, seq: updates.last?.seq ?? after)
        )
    }

    /// How many consumers wait for the next update now (long-polls and
    /// streams between pages).
    public var waitingConsumers: Int { state.withLock { $0.watchers.count } }

    /// A stream of the feed's head after each commit (the newest only),
    /// until the consuming task ends.
    public func watch() -> AsyncStream<UInt64> {
        let (stream, continuation) = AsyncStream.makeStream(of: UInt64.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.nextID += 1
            state.watchers[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }
}
