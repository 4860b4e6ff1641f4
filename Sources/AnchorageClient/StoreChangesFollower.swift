public import AsyncHTTPClient
public import Foundation
import OpenAPIRuntime

/// An update of a node's store-updates feed: a store whose log moved from
/// `since` to `anchor`, or a store deleted. Generated from docs/openapi.json.
public typealias StoreUpdate = Components.Schemas.StoreUpdate

/// A page of a node's store-updates feed. Generated from docs/openapi.json.
public typealias StoreUpdatesPage = Components.Schemas.StoreUpdatesPage

extension AnchorageNodeClient {
    /// One page of the node's store updates after `cursor`: which stores
    /// changed, from which anchor to which (docs/http-api.md, "One feed
    /// across every store"). For an administrator's or a consumer's token.
    ///
    /// ```swift
    /// let page = try await client.storeUpdates(since: savedCursor, wait: .seconds(30))
    /// for update in page.updates { print(update.store, update.since ?? "the beginning", "→", update.anchor ?? "deleted") }
    /// savedCursor = page.newCursor
    /// ```
    ///
    /// - Parameters:
    ///   - cursor: the `newCursor` of the last page, or an update's
    ///     `cursor`; `nil` from the first update; `"now"` from the last.
    ///   - wait: when nothing is newer, how long the node may hold the
    ///     request for an update (a long-poll, at most 60 s).
    /// - Throws: ``AnchorageClientError``: `invalidCursor` for another
    ///   node's cursor, `authorizationDenied` for a store's token…
    public func storeUpdates(
        since cursor: String? = nil,
        limit: Int? = nil,
        wait: Duration? = nil
    ) async throws -> StoreUpdatesPage {
        let seconds = wait.map { Int(min(max($0.components.seconds, 0), 60)) }
        let query = Operations.StoreUpdates.Input.Query(since: cursor, limit: limit, wait: seconds)
        return try await Self.mappingErrors {
            try await generated.storeUpdates(query: query, headers: .init(accept: [.init(contentType: .json)])).ok
                .body.json
        }
    }
}

/// Follows every store of a multi-store node with one cursor: the node's
/// store updates, and for each changed store its change feed from the
/// update's `since` (docs/http-api.md, "One feed across every store").
/// Keep the cursor of each ``Event/updateRead(cursor:)`` with what you
/// derived from the changes before it, and resume from it.
///
/// ```swift
/// let follower = StoreChangesFollower(serverURL: url, token: consumerToken, types: ["stepCount"])
/// try await follower.follow(from: savedCursor) { event in
///     switch event {
///     case .changes(let store, let page): try apply(page, to: store)
///     case .storeDeleted(let store): try forget(store)
///     case .updateRead(let cursor): savedCursor = cursor
///     }
/// }
/// ```
///
/// Objects may come twice (a store's feed reads to its head, past the
/// update's anchor, and the next update starts from there): they carry
/// their uuid, so applying one again changes nothing.
///
/// A request the node answers `503` (a fleet's store whose primary is
/// being replaced, a node stopping) or `429` is asked again, waiting a
/// little longer each time, for up to `retryingFor`; past it the error is
/// thrown. So is one that cannot reach the node, once the node has
/// answered (a node that never answered is more likely a wrong URL: that
/// is thrown at once).
public struct StoreChangesFollower: Sendable {
    /// What following brings, in order.
    public enum Event: Sendable {
        /// A page of one store's changes.
        case changes(store: String, page: ChangePage)
        /// A store was deleted: drop what came from it.
        case storeDeleted(store: String)
        /// Everything of an update was handed over: resume after it with
        /// this cursor.
        case updateRead(cursor: String)
    }

    let serverURL: URL
    let token: String
    let types: [String]
    let httpClient: HTTPClient
    let pageSize: Int
    let wait: Duration
    let retryingFor: Duration
    let node: AnchorageNodeClient

    /// A follower of the node at `serverURL` with `token` (a consumer's,
    /// `anchorage tokens issue --consumer`), of `types` (empty: every type
    /// the token reads).
    public init(
        serverURL: URL,
        token: String,
        types: [String] = [],
        httpClient: HTTPClient = .shared,
        pageSize: Int = 1_000,
        wait: Duration = .seconds(30),
        retryingFor: Duration = .seconds(60)
    ) {
        self.serverURL = serverURL
        self.token = token
        self.types = types
        self.httpClient = httpClient
        self.pageSize = pageSize
        self.wait = wait
        self.retryingFor = retryingFor
        node = AnchorageNodeClient(serverURL: serverURL, token: token, httpClient: httpClient)
    }

    /// Follows from `cursor` (`nil`: from the first update), calling
    /// `handle` for each event, until the task is cancelled — or, with
    /// `once`, until it has caught up with the node.
    ///
    /// - Throws: the first ``AnchorageClientError`` (resume from the last
    ///   ``Event/updateRead(cursor:)``), or what `handle` throws.
    public func follow(
        from cursor: String?,
        once: Bool = false,
        handle: (Event) async throws -> Void
    ) async throws {
        var cursor = cursor
        var answered = false
        while !Task.isCancelled {
            let page = try await retrying(unreachable: answered) { [node, pageSize, wait, cursor] in
                try await node.storeUpdates(since: cursor, limit: pageSize, wait: once ? nil : wait)
            }
            answered = true
            for update in page.updates {
                try await read(update, handle: handle)
                try await handle(.updateRead(cursor: update.cursor))
            }
            cursor = page.newCursor
            if once && !page.hasMore { return }
        }
    }

    /// Hands over one update: the changed store's pages from its `since`
    /// until the store's feed has nothing more, or its deletion.
    func read(_ update: StoreUpdate, handle: (Event) async throws -> Void) async throws {
        guard update.kind == .changed else {
            try await handle(.storeDeleted(store: update.store))
            return
        }
        let store = AnchorageNodeClient(serverURL: serverURL, token: token, store: update.store, httpClient: httpClient)
        var anchor = update.since
        while true {
            let page: ChangePage
            do {
                page = try await retrying { [types, pageSize, anchor] in
                    try await store.changes(since: anchor, types: types, limit: pageSize)
                }
            } catch let error as AnchorageClientError where error.code == .anchorNotValid && anchor != nil {
                anchor = nil  // the store was restored or made anew: read it all
                continue
            } catch let error as AnchorageClientError where error.code == .notFound || error.status == 410 {
                return  // deleted or shredded since: its own update says so
            }
            if !page.added.isEmpty || !page.deleted.isEmpty || !page.activitySummaries.isEmpty {
                try await handle(.changes(store: update.store, page: page))
            }
            anchor = page.newAnchor
            if !page.hasMore { return }
        }
    }

    /// `request`, asked again while the node answers 503 or 429 (or, with
    /// `unreachable`, cannot be reached), for up to ``retryingFor``.
    func retrying<T: Sendable>(unreachable: Bool = true, _ request: @Sendable () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + retryingFor
        var pause = Duration.milliseconds(100)
        while true {
            do {
                return try await request()
            } catch let error as AnchorageClientError
                where error.status == 503 || error.status == 429 || (unreachable && error.code == .unreachable)
            {
                guard ContinuousClock.now + pause < deadline else { throw error }
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(2))
            }
        }
    }
}
