public import AnchorageCore
public import Etcd
import Foundation
import Synchronization

/// A fleet's store-updates feed (`GET /v1/store-updates` on any fleet
/// node): which stores changed, from which anchor to which, in one order
/// for the whole fleet — etcd's revisions.
///
/// Each store's primary publishes the anchor its copy reached to
/// `store-updates/stores/<store>` (batched, off the write path:
/// ``publish(_:node:epoch:fences:extra:)``), with `store-updates/clock` in the same
/// transaction. A page reads etcd's history of those keys from the cursor's
/// revision with a watch that asks for each key's previous value: an
/// update's `since` is the anchor published before it, so one store's
/// updates chain without a gap whoever published them. The clock's revision,
/// read first, says where the history read ends, so a page costs the
/// revisions it covers, never the number of stores; a consumer waiting at
/// the head costs nothing but a shared watch of the clock.
///
/// ```swift
/// let feed = FleetStoreUpdates(etcd: etcd, keys: keys)
/// Task { await feed.run() }
/// let page = try await feed.waitForUpdates(after: cursor, limit: 100, timeout: .seconds(30))
/// ```
///
/// Read from no cursor, the feed lists every store at the current revision
/// (`since` null) before its updates. A cursor whose revision etcd has
/// compacted away is `cursorExpired`: read from the beginning again.
public final class FleetStoreUpdates: Sendable {
    /// What a store's head key holds.
    public struct PublishedHead: Codable, Sendable, Hashable {
        /// The anchor (with its version vector: valid on every copy).
        public var anchor: String
        /// The node that published it, and its epoch as primary.
        public var node: String
        public var epoch: Int64

        public init(anchor: String, node: String, epoch: Int64) {
            self.anchor = anchor
            self.node = node
            self.epoch = epoch
        }
    }

    /// The most head keys one publication writes (etcd takes 128
    /// operations a transaction by default; the clock and the publisher's
    /// position take two).
    public static let maximumBatch = 100

    public let etcd: EtcdClient
    public let keys: FleetKeys
    let clock: StoreClock
    /// How long reading a page's history may take before it is refused.
    private let readTimeout: Duration
    /// The most updates the window keeps; older ones are read from etcd's
    /// history.
    let windowCapacity: Int
    let state = Mutex(State())

    struct State {
        /// The updates the node's live watch delivered, oldest first:
        /// every update of the revisions from `windowStart` on.
        var window: [Buffered] = []
        /// The first revision the window holds entirely; `nil` while no
        /// watch is live.
        var windowStart: Int64?
        /// The last revision the watch delivered an event of.
        var windowEnd: Int64 = 0
        /// The feed's id, once etcd answered.
        var feedID: String?
        /// Pages read from etcd's history (not the window).
        var historyReads = 0
        var nextID = 0
        var watchers: [Int: AsyncStream<Int64>.Continuation] = [:]
    }

    /// An update kept in the window: its revision and place in it.
    struct Buffered {
        var revision: Int64
        /// Its position among the revision's updates, from 1.
        var index: Int
        var store: String
        var since: String?
        var anchor: String
    }

    public init(
        etcd: EtcdClient,
        keys: FleetKeys,
        clock: StoreClock = .continuous,
        readTimeout: Duration = .seconds(10),
        windowCapacity: Int = 100_000
    ) {
        self.etcd = etcd
        self.keys = keys
        self.clock = clock
        self.readTimeout = readTimeout
        self.windowCapacity = max(1, windowCapacity)
    }

    /// How many pages were read from etcd's history.
    var historyReads: Int { state.withLock { $0.historyReads } }

    /// The revisions the window holds every update of, while the watch is
    /// live.
    var window: ClosedRange<Int64>? {
        state.withLock { state in state.windowStart.map { $0...max($0, state.windowEnd) } }
    }

    // MARK: Publishing

    /// Publishes the anchors `heads` (store → anchor) as `node`, primary
    /// at `epoch`, in one transaction with the clock and `extra` (the
    /// publisher's position), if every comparison of `fences` holds. At
    /// most ``maximumBatch`` stores.
    ///
    /// A primary fences each store on its placement's mod revision: once
    /// the placement moved (a promotion), a deposed primary publishes
    /// nothing more, so a store's updates never go back to an old
    /// primary's copy after its new primary published.
    ///
    /// Writing the same anchor again is harmless (its update is empty), so
    /// a publication whose answer was lost is sent again.
    ///
    /// - Returns: whether it was published (`false`: a fence failed).
    @discardableResult
    public func publish(
        _ heads: [(store: String, anchor: String)],
        node: String,
        epoch: Int64,
        fences: [EtcdCompare] = [],
        extra: [EtcdOperation] = []
    ) async throws -> Bool {
        precondition(heads.count <= Self.maximumBatch)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var operations: [EtcdOperation] = []
        for (store, anchor) in heads {
            let value = try encoder.encode(PublishedHead(anchor: anchor, node: node, epoch: epoch))
            operations.append(.put(keys.storeHead(store), value: Array(value)))
        }
        // The clock last: a reader that sees its event has seen the revision.
        let txn = EtcdTxn(compare: fences, success: operations + extra + [.put(keys.storeUpdatesClock, value: [])])
        return try await etcd.txn(txn).succeeded
    }

    // MARK: Reading

    /// The feed's id: etcd's cluster id and a digest of the fleet's root.
    func feedID(_ header: EtcdHeader) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in keys.root.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Self.hex(header.clusterID, digits: 16) + Self.hex(UInt64(hash), digits: 8)
    }

    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The cursor of the feed's head (`since=now`): only later updates.
    public func headCursor() async throws -> FleetUpdatesCursor {
        let answer = try await etcd.range(.key(keys.storeUpdatesClock))
        return FleetUpdatesCursor(
            feed: feedID(answer.header),
            revision: answer.header.revision + 1,
            position: .updates(seen: 0)
        )
    }

    /// The page after `cursor` (`nil`: from the beginning, every store
    /// listed first), at once.
    ///
    /// - Throws: ``FleetError`` `invalidCursor` for another fleet's cursor
    ///   or one past etcd's revision; `cursorExpired` when etcd compacted
    ///   the cursor's revision away; ``EtcdError`` when etcd cannot answer.
    public func page(after cursor: FleetUpdatesCursor?, limit: Int) async throws -> FleetUpdatesPage {
        let limit = max(1, limit)
        if let cursor, let page = pageFromWindow(after: cursor, limit: limit) { return page }
        let answer = try await etcd.range(.key(keys.storeUpdatesClock))
        let feed = feedID(answer.header)
        let now = answer.header.revision
        let last = answer.kvs.first?.modRevision ?? 0
        guard let cursor else {
            return try await listing(at: now, after: nil, last: last, limit: limit, feed: feed)
        }
        guard cursor.feed == feed else {
            throw FleetError(.invalidCursor, "the cursor is another fleet's store-updates cursor")
        }
        guard cursor.revision <= now + 1 else {
            throw FleetError(
                .invalidCursor,
                "the cursor is past this fleet's last revision (\(now)): was etcd restored from an older backup?"
            )
        }
        switch cursor.position {
        case .listing(let after):
            return try await listing(at: cursor.revision, after: after, last: last, limit: limit, feed: feed)
        case .updates(let seen):
            guard last >= cursor.revision else {
                // Nothing was published from the cursor's revision to now.
                let next = FleetUpdatesCursor(feed: feed, revision: now + 1, position: .updates(seen: 0))
                return FleetUpdatesPage(updates: [], hasMore: false, newCursor: next)
            }
            return try await updates(from: cursor.revision, skipping: seen, through: last, limit: limit, feed: feed)
        }
    }

    /// Every store as of `revision`, in key order after `after`.
    private func listing(
        at revision: Int64,
        after: String?,
        last: Int64,
        limit: Int,
        feed: String
    ) async throws -> FleetUpdatesPage {
        let prefix = keys.storeHeads
        let end = String(prefix.dropLast()) + "0"  // the prefix's end: '/' + 1
        let start = after.map { keys.storeHead($0) + "\u{0}" } ?? prefix
        let answer: EtcdRangeResult
        do {
            answer = try await etcd.range(.range(start: start, end: end), limit: limit, revision: revision)
        } catch let error as EtcdError where error.isCompacted {
            throw Self.expired(revision)
        }
        var updates: [FleetStoreUpdate] = []
        let decoder = JSONDecoder()
        for kv in answer.kvs {
            guard let store = keys.id(in: kv.keyText, under: prefix),
                let head = try? decoder.decode(PublishedHead.self, from: Data(kv.value))
            else { continue }
            updates.append(
                FleetStoreUpdate(
                    cursor: FleetUpdatesCursor(feed: feed, revision: revision, position: .listing(after: store)),
                    store: store,
                    since: nil,
                    anchor: head.anchor
                )
            )
        }
        if answer.more, let lastKey = answer.kvs.last, let store = keys.id(in: lastKey.keyText, under: prefix) {
            let next = FleetUpdatesCursor(feed: feed, revision: revision, position: .listing(after: store))
            return FleetUpdatesPage(updates: updates, hasMore: true, newCursor: next)
        }
        let next = FleetUpdatesCursor(feed: feed, revision: revision + 1, position: .updates(seen: 0))
        return FleetUpdatesPage(updates: updates, hasMore: last > revision, newCursor: next)
    }

    /// The updates of revisions `from`…`last` (the clock's), skipping the
    /// first `seen` of `from`, at most `limit`.
    private func updates(
        from revision: Int64,
        skipping seen: Int,
        through last: Int64,
        limit: Int,
        feed: String
    ) async throws -> FleetUpdatesPage {
        state.withLock { $0.historyReads += 1 }
        let (etcd, keys, clock, timeout) = (etcd, keys, clock, readTimeout)
        return try await withThrowingTaskGroup(of: FleetUpdatesPage?.self) { group in
            group.addTask {
                var updates: [FleetStoreUpdate] = []
                var current = (revision: revision, index: 0)
                let decoder = JSONDecoder()
                do {
                    for try await response in etcd.watch(.prefix(keys.storeUpdates), from: revision, previous: true) {
                        for event in response.events {
                            let at = event.kv.modRevision
                            if at != current.revision { current = (at, 0) }
                            if event.kv.keyText == keys.storeUpdatesClock {
                                guard at >= last else { continue }
                                let next = FleetUpdatesCursor(feed: feed, revision: at + 1, position: .updates(seen: 0))
                                return FleetUpdatesPage(updates: updates, hasMore: false, newCursor: next)
                            }
                            guard event.kind == .put, let store = keys.id(in: event.kv.keyText, under: keys.storeHeads)
                            else { continue }
                            if at == revision && current.index < seen {
                                current.index += 1
                                continue
                            }
                            guard updates.count < limit else {
                                return FleetUpdatesPage(
                                    updates: updates,
                                    hasMore: true,
                                    newCursor: updates.last!.cursor
                                )
                            }
                            current.index += 1
                            guard let head = try? decoder.decode(PublishedHead.self, from: Data(event.kv.value)) else {
                                continue
                            }
                            let before = event.previous.flatMap {
                                try? decoder.decode(PublishedHead.self, from: Data($0.value))
                            }
                            updates.append(
                                FleetStoreUpdate(
                                    cursor: FleetUpdatesCursor(
                                        feed: feed,
                                        revision: at,
                                        position: .updates(seen: current.index)
                                    ),
                                    store: store,
                                    since: before?.anchor,
                                    anchor: head.anchor
                                )
                            )
                        }
                    }
                } catch let error as EtcdError where error.isCompacted {
                    throw Self.expired(revision)
                }
                throw EtcdError(.noAnswer, "etcd ended the store-updates history read early")
            }
            group.addTask {
                try await clock.sleep(timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let page = try await group.next() ?? nil else {
                throw EtcdError(.noAnswer, "etcd did not give the store-updates history within \(timeout)")
            }
            return page
        }
    }

    static func expired(_ revision: Int64) -> FleetError {
        FleetError(
            .cursorExpired,
            "etcd no longer keeps the fleet's history at the cursor (revision \(revision) was compacted): "
                + "read the feed from its beginning (no since) and every store from its listed anchor"
        )
    }
}
