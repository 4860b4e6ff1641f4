import AnchorageFleet
import AnchorageService

/// A fleet's feed, through etcd (`GET /v1/store-updates` on a fleet node).
struct FleetStoreUpdatesSource: StoreUpdatesSource {
    let feed: FleetStoreUpdates

    func page(
        after text: String?,
        limit: Int,
        wait: Duration,
        until stop: AsyncStream<Void>
    ) async throws -> StoreUpdatesRoutes.Page {
        let cursor: FleetUpdatesCursor?
        switch text {
        case nil: cursor = nil
        case "now": cursor = try await feed.headCursor()
        case let text?: cursor = try FleetUpdatesCursor(parsing: text)
        }
        let page = try await feed.waitForUpdates(after: cursor, limit: limit, timeout: wait, until: stop)
        return StoreUpdatesRoutes.Page(
            updates: page.updates.map { update in
                StoreUpdatesRoutes.Item(
                    cursor: update.cursor.description,
                    store: update.store,
                    kind: .changed,
                    since: update.since,
                    anchor: update.anchor
                )
            },
            hasMore: page.hasMore,
            newCursor: page.newCursor.description
        )
    }
}
