import HeapModule

/// The decisions of a ``StorePool``, as a value with no I/O, so they are
/// tested without stores or clocks: which store to open, which to close,
/// who waits. Times are the pool clock's instants, given by the caller.
///
/// A store is *open* (with its resource), *opening* (one caller opens it,
/// the others wait for it), *closing* (handed out to be closed, until the
/// caller reports ``closed(_:)``: a request for it waits, since opening the
/// store again before its old handle is closed would find it in use), or
/// absent. At most `capacity`
/// stores are open, opening or closing together (so the descriptors a
/// closing store still holds count too), and at most `maximumOpening` are
/// opening; past
/// either limit a request waits its turn (first come, first served). An
/// open store nobody holds closes once it has been idle for `idle`, or
/// when room is needed for another (least recently used first). A store
/// being removed takes no new holder and closes once the last lets go.
struct StorePoolState<Instant: Comparable & Sendable, Resource: Sendable>: Sendable {
    struct Limits: Sendable {
        var capacity: Int
        var maximumOpening: Int
    }

    enum Slot: Sendable {
        case opening(waiters: [Int])
        case open(Resource, holders: Int, lastUsed: Instant)
        case closing
    }

    /// A store handed out to be closed: close `resource`, then report
    /// ``closed(_:)`` with `name`.
    typealias Closing = (name: String, resource: Resource)

    /// What the caller of ``acquire(_:ticket:now:)`` does next.
    enum Acquired: Sendable {
        /// Use this resource (one hold taken); release it afterwards.
        case use(Resource)
        /// Open the store, then report with ``opened(_:_:now:)`` or
        /// ``failedToOpen(_:)``; close these first to make room.
        case open(closing: [Closing])
        /// Wait: the ticket is resumed by a later decision.
        case wait
        /// The store is being removed: refuse the request.
        case gone
    }

    let limits: Limits
    private(set) var slots: [String: Slot] = [:]
    /// Requests waiting for room, in arrival order.
    private(set) var queue: [(ticket: Int, name: String)] = []
    /// Stores being removed: no new holders.
    private(set) var removing: Set<String> = []
    /// The stores nobody holds, least recently used first, so that making
    /// room costs O(log n), not a sort of every open store under the pool's
    /// lock: an entry is pushed whenever a store's last holder lets go, and
    /// one whose store was used again since (or closed) is skipped when it
    /// comes up.
    private var idleOrder = Heap<IdleEntry>()

    struct IdleEntry: Comparable, Sendable {
        var lastUsed: Instant
        var name: String

        static func < (a: Self, b: Self) -> Bool { (a.lastUsed, a.name) < (b.lastUsed, b.name) }
    }

    init(limits: Limits) {
        precondition(limits.capacity >= 1 && limits.maximumOpening >= 1)
        self.limits = limits
    }

    /// The stores being opened (kept as a count: every acquisition asks).
    private(set) var openingCount = 0

    /// The open stores' resources.
    var openResources: [Resource] {
        slots.values.compactMap { if case .open(let resource, _, _) = $0 { resource } else { nil } }
    }

    /// A request for `name`. `ticket` names the request if it must wait.
    mutating func acquire(_ name: String, ticket: Int, now: Instant) -> Acquired {
        guard !removing.contains(name) else { return .gone }
        switch slots[name] {
        case .open(let resource, let holders, _):
            slots[name] = .open(resource, holders: holders + 1, lastUsed: now)
            return .use(resource)
        case .opening(let waiters):
            slots[name] = .opening(waiters: waiters + [ticket])
            return .wait
        case .closing:
            // Its old handle first: ``closed(_:)`` admits this request.
            queue.append((ticket, name))
            return .wait
        case nil:
            // Earlier arrivals waiting for room go first.
            guard queue.isEmpty, let closing = makeRoom() else {
                queue.append((ticket, name))
                return .wait
            }
            slots[name] = .opening(waiters: [])
            openingCount += 1
            return .open(closing: closing)
        }
    }

    /// The idle stores to close so that one more fits (least recently
    /// used first), or `nil` when it cannot fit yet: too many opening, or
    /// not enough stores nobody holds. Takes nothing out when it returns nil.
    private mutating func makeRoom() -> [Closing]? {
        guard openingCount < limits.maximumOpening else { return nil }
        let needed = slots.count - limits.capacity + 1
        guard needed > 0 else { return [] }
        var oldest: [(entry: IdleEntry, resource: Resource)] = []
        while oldest.count < needed, let entry = idleOrder.popMin() {
            // Still idle since then (not used again, not taken already)?
            guard case .open(let resource, 0, let lastUsed) = slots[entry.name], lastUsed == entry.lastUsed else {
                continue
            }
            slots[entry.name] = .closing
            oldest.append((entry, resource))
        }
        guard oldest.count == needed else {
            for (entry, resource) in oldest {
                slots[entry.name] = .open(resource, holders: 0, lastUsed: entry.lastUsed)
                idleOrder.insert(entry)
            }
            return nil
        }
        return oldest.map { ($0.entry.name, $0.resource) }
    }

    /// Notes that `name`'s last holder let go at `now`.
    private mutating func becameIdle(_ name: String, at now: Instant) {
        idleOrder.insert(IdleEntry(lastUsed: now, name: name))
        // Entries of stores used again pile up: rebuild from the slots now and then.
        guard idleOrder.count > 2 * slots.count + 64 else { return }
        idleOrder = Heap(
            slots.compactMap { name, slot in
                guard case .open(_, 0, let lastUsed) = slot else { return nil }
                return IdleEntry(lastUsed: lastUsed, name: name)
            }
        )
    }

    /// The store `name` handed out to be closed is closed: its room is
    /// free, and it may be opened again.
    mutating func closed(_ name: String) {
        guard case .closing = slots[name] else { preconditionFailure("\(name) was not closing") }
        slots[name] = nil
    }

    /// The store opened: the opener holds it, and so does everyone who
    /// waited for it. Returns those waiters' tickets.
    mutating func opened(_ name: String, _ resource: Resource, now: Instant) -> [Int] {
        guard case .opening(let waiters) = slots[name] else { preconditionFailure("\(name) was not opening") }
        slots[name] = .open(resource, holders: 1 + waiters.count, lastUsed: now)
        openingCount -= 1
        return waiters
    }

    /// The store could not be opened: its waiters fail too (they retry, or
    /// report the error). Returns their tickets.
    mutating func failedToOpen(_ name: String) -> [Int] {
        guard case .opening(let waiters) = slots[name] else { preconditionFailure("\(name) was not opening") }
        slots[name] = nil
        openingCount -= 1
        return waiters
    }

    /// A holder is done with `name`. Returns the resource to close when
    /// the store is being removed and this was its last holder.
    mutating func release(_ name: String, now: Instant) -> Closing? {
        guard case .open(let resource, let holders, _) = slots[name] else { preconditionFailure("\(name) is not open") }
        slots[name] = .open(resource, holders: holders - 1, lastUsed: now)
        if holders == 1 && removing.contains(name) {
            slots[name] = .closing
            return (name, resource)
        }
        if holders == 1 { becameIdle(name, at: now) }
        return nil
    }

    /// The next request waiting for room that can now go ahead, with the
    /// stores to close first; call after anything that frees room.
    mutating func admitNext(now: Instant) -> (ticket: Int, name: String, decision: Acquired)? {
        guard let first = queue.first else { return nil }
        if removing.contains(first.name) {
            queue.removeFirst()
            return (first.ticket, first.name, .gone)
        }
        switch slots[first.name] {
        case .open, .opening:
            queue.removeFirst()
            return (first.ticket, first.name, acquire(first.name, ticket: first.ticket, now: now))
        case .closing:
            // First come, first served: the queue waits for this close.
            return nil
        case nil:
            guard let closing = makeRoom() else { return nil }
            queue.removeFirst()
            slots[first.name] = .opening(waiters: [])
            openingCount += 1
            return (first.ticket, first.name, .open(closing: closing))
        }
    }

    /// The open stores nobody holds that have been idle since `deadline`
    /// or longer: they close now.
    mutating func closeIdle(before deadline: Instant) -> [Closing] {
        var closing: [Closing] = []
        for (name, slot) in slots {
            guard case .open(let resource, 0, let lastUsed) = slot, lastUsed <= deadline else { continue }
            slots[name] = .closing
            closing.append((name, resource))
        }
        return closing
    }

    /// Starts removing `name`: it takes no new holder; returns its
    /// resource when nobody holds it (close it now), else `nil` (the last
    /// ``release(_:now:)`` returns it).
    mutating func beginRemoval(_ name: String) -> Closing? {
        removing.insert(name)
        guard case .open(let resource, 0, _) = slots[name] else { return nil }
        slots[name] = .closing
        return (name, resource)
    }

    /// Whether `name` is open, opening, held or closing.
    func isPresent(_ name: String) -> Bool { slots[name] != nil }

    /// The resource of `name` while it is open (held or not).
    func resource(of name: String) -> Resource? {
        guard case .open(let resource, _, _) = slots[name] else { return nil }
        return resource
    }

    /// Whether `name` is being removed.
    func isRemoving(_ name: String) -> Bool { removing.contains(name) }

    /// Ends the removal of `name`: it may be opened again (a new store of
    /// that id).
    mutating func endRemoval(_ name: String) {
        removing.remove(name)
    }
}
