public import Anchorage
import Synchronization

/// The open stores of a multi-store node: a store opens on its first
/// request and closes once idle, at most ``Configuration/capacity`` are open
/// (least recently used closed first), and at most
/// ``Configuration/maximumOpening`` open at once, so ten thousand first
/// requests to cold stores wait their turn instead of exhausting threads or
/// file descriptors. A closed store holds no thread or descriptor.
///
/// ```swift
/// let pool = StorePool<HKHealthStore>(open: { name in try await open(name) }, close: { await $0.close() })
/// let count = try await pool.withStore(try StoreName("alice")) { store in try await count(in: store) }
/// ```
///
/// Opening and closing run in the callbacks, never under the pool's lock;
/// the decisions are ``StorePoolState``'s.
public final class StorePool<Resource: Sendable>: Sendable {
    /// Limits and timing of a pool.
    public struct Configuration: Sendable {
        /// At most this many stores are open (or opening) together.
        public var capacity = 1_000
        /// At most this many stores are being opened together.
        public var maximumOpening = 16
        /// A store nobody has used for this long is closed.
        public var idle: Duration = .seconds(60)

        public init() {}
    }

    public let configuration: Configuration
    private let clock: StoreClock
    private let open: @Sendable (StoreName) async throws -> Resource
    private let close: @Sendable (Resource) async -> Void
    private let stop: @Sendable (Resource) -> Void
    private let state: Mutex<Inner>
    /// Whether the last idle sweep closed stores: what they free after it
    /// (their writers' threads end later) is given back at the next one.
    private let closedLastSweep = Atomic(false)
    /// Stores closed for a moment (``pause(_:while:)``), and why: their
    /// requests are told to come back, not that the store is gone.
    private let paused = Mutex<[String: String]>([:])

    private struct Inner: ~Copyable {
        var machine: StorePoolState<Duration, Resource>
        var nextTicket = 0
        /// Waiting requests: resumed with their next step.
        var waiting: [Int: CheckedContinuation<Step, Never>] = [:]
        /// Removals waiting for a store's last holder.
        var removals: [String: [CheckedContinuation<Void, Never>]] = [:]
        /// Steps decided for tickets before they began to wait.
        var early: [Int: Step] = [:]
    }

    /// What a request does after waiting.
    private enum Step: Sendable {
        case use(Resource)
        case open(closing: [StorePoolState<Duration, Resource>.Closing])
        case retry
        case gone
    }

    /// A pool that opens and closes stores with these callbacks; times are
    /// read from `clock`. `stop` asks the holders of a store being removed
    /// to finish soon (long-lived answers such as a followed feed end).
    public init(
        configuration: Configuration = Configuration(),
        clock: StoreClock = .continuous,
        open: @escaping @Sendable (StoreName) async throws -> Resource,
        close: @escaping @Sendable (Resource) async -> Void,
        stop: @escaping @Sendable (Resource) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.clock = clock
        self.open = open
        self.close = close
        self.stop = stop
        let limits = StorePoolState<Duration, Resource>.Limits(
            capacity: configuration.capacity,
            maximumOpening: configuration.maximumOpening
        )
        state = Mutex(Inner(machine: StorePoolState(limits: limits)))
    }

    /// How many stores are open or opening.
    public var openCount: Int { state.withLock { $0.machine.slots.count } }

    /// Runs `body` with the store `name`, opening it first if it is closed;
    /// the store stays open while `body` runs.
    ///
    /// - Throws: what opening the store threw, `body`'s error, or
    ///   ``ServiceError`` `.storeNotFound` while the store is being removed.
    public func withStore<R: Sendable>(
        _ name: StoreName,
        _ body: (Resource) async throws -> R
    ) async throws -> R {
        let resource = try await acquire(name)
        do {
            let result = try await body(resource)
            await release(name)
            return result
        } catch {
            await release(name)
            throw error
        }
    }

    /// Takes a hold on the store `name` (opening it if it is closed) that
    /// lasts until ``Lease/release()``: for work that outlives a closure,
    /// such as a response body written after its handler returned.
    ///
    /// ```swift
    /// let lease = try await pool.lease(name)
    /// defer { Task { await lease.release() } }
    /// ```
    public func lease(_ name: StoreName) async throws -> Lease {
        Lease(pool: self, name: name, resource: try await acquire(name))
    }

    /// A hold on one open store; released once, by ``release()``.
    public final class Lease: Sendable {
        private let pool: StorePool
        private let name: StoreName
        private let released = Mutex(false)
        /// The open store.
        public let resource: Resource

        fileprivate init(pool: StorePool, name: StoreName, resource: Resource) {
            self.pool = pool
            self.name = name
            self.resource = resource
        }

        /// Lets the store go; later calls do nothing.
        public func release() async {
            guard
                released.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            await pool.release(name)
        }
    }

    private func acquire(_ name: StoreName) async throws -> Resource {
        while true {
            let now = clock.now()
            let first = state.withLock { inner -> (Int, StorePoolState<Duration, Resource>.Acquired) in
                inner.nextTicket += 1
                return (inner.nextTicket, inner.machine.acquire(name.rawValue, ticket: inner.nextTicket, now: now))
            }
            let step: Step
            switch first.1 {
            case .use(let resource): step = .use(resource)
            case .open(let closing): step = .open(closing: closing)
            case .gone: step = .gone
            case .wait:
                step = await withCheckedContinuation { continuation in
                    state.withLock { inner in
                        if let early = inner.early.removeValue(forKey: first.0) {
                            continuation.resume(returning: early)
                        } else {
                            inner.waiting[first.0] = continuation
                        }
                    }
                }
            }
            switch step {
            case .use(let resource):
                return resource
            case .gone:
                if let reason = paused.withLock({ $0[name.rawValue] }) {
                    throw ServiceError(.keyUnavailable, "store \(name) is closed for a moment (\(reason)); try again")
                }
                throw ServiceError(.storeNotFound, "there is no store \(name)")
            case .retry:
                continue
            case .open(let closing):
                for item in closing { await closeCounted(item) }
                do {
                    let resource = try await open(name)
                    let (waiters, removing) = state.withLock {
                        (
                            $0.machine.opened(name.rawValue, resource, now: clock.now()),
                            $0.machine.isRemoving(name.rawValue)
                        )
                    }
                    if removing { stop(resource) }  // removal began while it opened
                    resume(waiters, with: .use(resource))
                    await admit()
                    return resource
                } catch {
                    let waiters = state.withLock { $0.machine.failedToOpen(name.rawValue) }
                    resume(waiters, with: .retry)
                    finishRemoval(name.rawValue)
                    await admit()
                    throw error
                }
            }
        }
    }

    private func release(_ name: StoreName) async {
        let doomed = state.withLock { $0.machine.release(name.rawValue, now: clock.now()) }
        if let doomed { await closeCounted(doomed) }
        await admit()
    }

    /// Lets waiting requests go ahead while there is room.
    private func admit() async {
        while true {
            let next = state.withLock { $0.machine.admitNext(now: clock.now()) }
            guard let next else { return }
            switch next.decision {
            case .use(let resource): resume([next.ticket], with: .use(resource))
            case .open(let closing): resume([next.ticket], with: .open(closing: closing))
            case .gone: resume([next.ticket], with: .gone)
            case .wait: continue  // now a waiter of the store being opened
            }
        }
    }

    /// Closes a store the state handed out to be closed, then frees its
    /// room and its name (the caller admits waiters afterwards), and ends a
    /// removal that waited for it.
    private func closeCounted(_ item: StorePoolState<Duration, Resource>.Closing) async {
        await close(item.resource)
        state.withLock { $0.machine.closed(item.name) }
        finishRemoval(item.name)
    }

    private func resume(_ tickets: [Int], with step: Step) {
        let continuations = state.withLock { inner in
            tickets.compactMap { ticket -> CheckedContinuation<Step, Never>? in
                guard let continuation = inner.waiting.removeValue(forKey: ticket) else {
                    inner.early[ticket] = step
                    return nil
                }
                return continuation
            }
        }
        for continuation in continuations { continuation.resume(returning: step) }
    }

    /// Closes the stores idle for ``Configuration/idle`` or longer; returns
    /// how many it closed. Having closed some, it hands the heap memory
    /// they freed back to the system (``FreedMemory``), then and at the
    /// next sweep.
    @discardableResult
    public func closeIdle() async -> Int {
        let deadline = clock.now() - configuration.idle
        let closing = state.withLock { $0.machine.closeIdle(before: deadline) }
        for item in closing { await closeCounted(item) }
        await admit()
        let closedBefore = closedLastSweep.exchange(!closing.isEmpty, ordering: .relaxed)
        if closedBefore || !closing.isEmpty { FreedMemory.returnToSystem() }
        return closing.count
    }

    /// Closes idle stores every half idle period until cancelled.
    public func run() async {
        while !Task.isCancelled {
            do { try await clock.sleep(configuration.idle / 2) } catch { return }
            await closeIdle()
        }
    }

    /// Closes `name` for good before it is erased: new requests for it are
    /// refused with `storeNotFound`, its holders are asked to finish (the
    /// pool's `stop`), and this returns once the last of them is done and
    /// the store is closed. Then ``endRemoval(_:)`` lets a new store of that
    /// id open.
    public func remove(_ name: StoreName) async {
        let now = state.withLock { inner in inner.machine.beginRemoval(name.rawValue) }
        if let now {
            await closeCounted(now)
            await admit()
            return
        }
        let (held, resource) = state.withLock {
            ($0.machine.isPresent(name.rawValue), $0.machine.resource(of: name.rawValue))
        }
        if let resource { stop(resource) }
        guard held else {
            await admit()
            return
        }
        await withCheckedContinuation { continuation in
            let finished = state.withLock { inner -> Bool in
                guard inner.machine.isPresent(name.rawValue) else { return true }
                inner.removals[name.rawValue, default: []].append(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
    }

    /// Closes `name` as ``remove(_:)`` does, runs `body` while it is
    /// closed (its requests meanwhile are `keyUnavailable`, "closed for a
    /// moment (`reason`)", which a node answers 503 with Retry-After), then
    /// lets it open again.
    public func pause<R>(_ name: StoreName, reason: String, while body: () async throws -> R) async rethrows -> R {
        paused.withLock { $0[name.rawValue] = reason }
        await remove(name)
        defer {
            endRemoval(name)
            paused.withLock { _ = $0.removeValue(forKey: name.rawValue) }
        }
        return try await body()
    }

    /// Whether ``remove(_:)`` has begun for `name` and ``endRemoval(_:)``
    /// not yet been called.
    public func isRemoving(_ name: StoreName) -> Bool {
        state.withLock { $0.machine.isRemoving(name.rawValue) }
    }

    /// After ``remove(_:)``: the id may name a store again.
    public func endRemoval(_ name: StoreName) {
        state.withLock { $0.machine.endRemoval(name.rawValue) }
    }

    private func finishRemoval(_ name: String) {
        let waiting = state.withLock { $0.removals.removeValue(forKey: name) ?? [] }
        for continuation in waiting { continuation.resume() }
    }

    /// Closes every open store (on shutdown); requests still holding one
    /// keep it until they end.
    public func closeAll() async {
        let closing = state.withLock { $0.machine.closeIdle(before: .seconds(Int64.max)) }
        for item in closing { await closeCounted(item) }
    }
}
