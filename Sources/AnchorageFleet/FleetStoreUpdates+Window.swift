import AnchorageCore
import Etcd
import Foundation
import Synchronization

/// The feed's live side: the window its watch fills, and consumers
/// waiting at the head.
extension FleetStoreUpdates {
    /// Keeps a live watch of the feed until cancelled: its updates fill
    /// the window pages are read from without asking etcd, and wake the
    /// consumers waiting for them. Resumed where it stopped when the watch
    /// breaks; started again from etcd's present when its revision was
    /// compacted meanwhile.
    public func run() async {
        var next: Int64?
        let decoder = JSONDecoder()
        while !Task.isCancelled {
            do {
                if next == nil {
                    let answer = try await etcd.range(.key(keys.storeUpdatesClock))
                    let start = answer.header.revision + 1
                    let id = feedID(answer.header)
                    state.withLock { state in
                        state.window.removeAll()
                        state.windowStart = start
                        state.windowEnd = start - 1
                        state.feedID = id
                    }
                    next = start
                }
                for try await response in etcd.watch(.prefix(keys.storeUpdates), from: next!, previous: true) {
                    guard let last = response.events.last?.kv.modRevision else { continue }
                    var arrived: [(revision: Int64, store: String, since: String?, anchor: String)] = []
                    for event in response.events {
                        guard event.kind == .put, let store = keys.id(in: event.kv.keyText, under: keys.storeHeads)
                        else { continue }
                        // Undecodable values still take their place, so positions agree with history reads.
                        let head = try? decoder.decode(PublishedHead.self, from: Data(event.kv.value))
                        let before = event.previous.flatMap {
                            try? decoder.decode(PublishedHead.self, from: Data($0.value))
                        }
                        arrived.append((event.kv.modRevision, store, before?.anchor, head?.anchor ?? ""))
                    }
                    append(arrived, through: last)
                    next = last + 1
                }
            } catch let error as EtcdError where error.isCompacted {
                next = nil
            } catch {
                try? await clock.sleep(.seconds(1))
            }
        }
        state.withLock { $0.windowStart = nil }
    }

    func append(_ arrived: [(revision: Int64, store: String, since: String?, anchor: String)], through last: Int64) {
        let watchers = state.withLock { state -> [AsyncStream<Int64>.Continuation] in
            for update in arrived {
                let index = state.window.last.map { $0.revision == update.revision ? $0.index + 1 : 1 } ?? 1
                state.window.append(
                    Buffered(
                        revision: update.revision,
                        index: index,
                        store: update.store,
                        since: update.since,
                        anchor: update.anchor
                    )
                )
            }
            state.windowEnd = max(state.windowEnd, last)
            if state.window.count > windowCapacity {
                // Drop whole revisions, oldest first, down to nine tenths.
                var cut = max(1, state.window.count - windowCapacity * 9 / 10)
                let revision = state.window[cut - 1].revision
                while cut < state.window.count && state.window[cut].revision == revision { cut += 1 }
                state.window.removeFirst(cut)
                state.windowStart = revision + 1
            }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.yield(last) }
    }

    /// The page after `cursor` from the window, when the window holds
    /// every update after it; `nil` otherwise.
    func pageFromWindow(after cursor: FleetUpdatesCursor, limit: Int) -> FleetUpdatesPage? {
        guard case .updates(let seen) = cursor.position else { return nil }
        return state.withLock { state -> FleetUpdatesPage? in
            guard let start = state.windowStart, let feed = state.feedID, cursor.feed == feed,
                cursor.revision >= start, cursor.revision <= state.windowEnd + 1
            else { return nil }
            // The first update at or after the cursor's revision.
            var low = 0
            var high = state.window.count
            while low < high {
                let middle = (low + high) / 2
                if state.window[middle].revision < cursor.revision { low = middle + 1 } else { high = middle }
            }
            var index = low
            while index < state.window.count && state.window[index].revision == cursor.revision
                && state.window[index].index <= seen
            {
                index += 1
            }
            let end = min(state.window.count, index + limit)
            let updates = state.window[index..<end].compactMap { update -> FleetStoreUpdate? in
                guard !update.anchor.isEmpty else { return nil }
                return FleetStoreUpdate(
                    cursor: FleetUpdatesCursor(
                        feed: feed,
                        revision: update.revision,
                        position: .updates(seen: update.index)
                    ),
                    store: update.store,
                    since: update.since,
                    anchor: update.anchor
                )
            }
            if end < state.window.count {
                let last = state.window[end - 1]
                let next = FleetUpdatesCursor(feed: feed, revision: last.revision, position: .updates(seen: last.index))
                return FleetUpdatesPage(updates: updates, hasMore: true, newCursor: next)
            }
            let next = FleetUpdatesCursor(
                feed: feed,
                revision: max(cursor.revision, state.windowEnd + 1),
                position: .updates(seen: 0)
            )
            return FleetUpdatesPage(updates: updates, hasMore: false, newCursor: next)
        }
    }

    /// How many consumers wait for the next publication now.
    public var waitingConsumers: Int { state.withLock { $0.watchers.count } }

    func watch() -> AsyncStream<Int64> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
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

    /// The page after `cursor`, at once when it holds updates; otherwise
    /// held until a store's primary publishes, `timeout` passes, or `stop`
    /// yields.
    public func waitForUpdates(
        after cursor: FleetUpdatesCursor?,
        limit: Int,
        timeout: Duration,
        until stop: AsyncStream<Void>? = nil
    ) async throws -> FleetUpdatesPage {
        guard timeout > .zero else { return try await page(after: cursor, limit: limit) }
        // Watching before reading: no publication can fall between the two.
        let published = watch()
        let first = try await page(after: cursor, limit: limit)
        guard first.updates.isEmpty else { return first }
        let target = first.newCursor.revision
        let woken = await clock.waitForFirst(of: published, where: { $0 >= target }, timeout: timeout, until: stop)
        guard woken else { return first }
        return try await page(after: first.newCursor, limit: limit)
    }
}
