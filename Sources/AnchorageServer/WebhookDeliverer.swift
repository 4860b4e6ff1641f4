import Anchorage
import AnchorageLog
import AnchorageService
import AnchorageSync
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

/// Posts each webhook's changes (docs/http-api.md, "Webhooks"): one task a
/// webhook, which reads a page of the changes its principal may read after
/// its anchor, posts it signed, and moves the anchor only on a 2xx answer;
/// on failure it waits (1 s doubling to 5 min, with jitter) and posts the
/// same changes again. With nothing to send it waits for the next commit.
final class WebhookDeliverer: Service, Sendable {
    /// What the node knows of a webhook's deliveries, for `GET /v1/webhooks`.
    struct Status: Sendable, Hashable {
        var failures = 0
        var lastError: String?
        var lastDelivery: Date?
        var nextAttempt: Date?
        /// Whether it holds changes not yet delivered (a page in hand, or
        /// failed posts).
        var hasUndelivered = false
    }

    private struct State {
        var tasks: [String: Task<Void, Never>] = [:]
        var statuses: [String: Status] = [:]
        /// The client deliveries are posted with, while the service runs.
        var client: HTTPClient?
    }

    let webhooks: WebhookStore
    /// The store acting as a webhook's principal (`nil`: the owner), or
    /// `nil` when that app has no token any more.
    private let storeForPrincipal: @Sendable (String?) -> HKHealthStore?
    private let configuration: NodeConfiguration
    private let logger: Logger
    private let state = Mutex(State())

    init(
        log: EventLog,
        configuration: NodeConfiguration,
        logger: Logger,
        storeForPrincipal: @escaping @Sendable (String?) -> HKHealthStore?
    ) {
        self.storeForPrincipal = storeForPrincipal
        self.webhooks = WebhookStore(log: log)
        self.configuration = configuration
        self.logger = logger
    }

    /// The client deliveries are posted with: no redirects, the node's
    /// webhook time-out.
    static func client(_ configuration: NodeConfiguration) -> HTTPClient {
        var settings = HTTPClient.Configuration(redirectConfiguration: .disallow)
        let timeout = TimeAmount.milliseconds(Int64(configuration.webhookTimeout.timeInterval * 1_000))
        settings.timeout = .init(connect: timeout, read: timeout)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: settings)
    }

    /// A single-store node's deliveries, for as long as the node runs.
    func run() async throws {
        let client = Self.client(configuration)
        begin(with: client)
        try? await gracefulShutdown()
        await end()
        try? await client.shutdown()
    }

    /// Starts delivering every registered webhook with `client` (a store
    /// of a multi-store node, as it opens).
    func begin(with client: HTTPClient) {
        let existing = (try? webhooks.all()) ?? []
        state.withLock { $0.client = client }
        for webhook in existing { start(webhook) }
    }

    /// Stops every delivery and returns once they have ended; what was not
    /// delivered is delivered after the next ``begin(with:)``, from each
    /// webhook's saved anchor. Returns whether a webhook had changes it had
    /// not delivered.
    @discardableResult
    func end() async -> Bool {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.client = nil
            defer { state.tasks = [:] }
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        return state.withLock { $0.statuses.values.contains { $0.hasUndelivered } }
    }

    /// Starts delivering a webhook just registered.
    func start(_ webhook: Webhook) {
        state.withLock { state in
            guard let client = state.client, state.tasks[webhook.id] == nil else { return }
            state.statuses[webhook.id] = Status()
            state.tasks[webhook.id] = Task { [self] in await deliver(webhook, with: client) }
        }
    }

    /// Stops delivering a webhook about to be deleted; returns once its
    /// task has ended, so nothing it does can outlive the deletion.
    func stop(_ id: String) async {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.statuses[id] = nil
            return state.tasks.removeValue(forKey: id)
        }
        task?.cancel()
        await task?.value
    }

    func status(of id: String) -> Status {
        state.withLock { $0.statuses[id] ?? Status() }
    }

    private func update(_ id: String, _ change: (inout Status) -> Void) {
        state.withLock { state in
            guard var status = state.statuses[id] else { return }
            change(&status)
            state.statuses[id] = status
        }
    }

    /// Delivers `webhook` until its task is cancelled.
    private func deliver(_ initial: Webhook, with client: HTTPClient) async {
        var webhook = initial
        guard let store = storeForPrincipal(webhook.principal) else {
            update(webhook.id) { $0.lastError = Self.noToken }
            return
        }
        var session: ChangeFeedSession?
        var failures = 0
        var backoff = Self.backoff(configuration)
        var random = SystemRandomNumberGenerator()
        var lastDelivery: Duration?
        while !Task.isCancelled {
            do {
                if session == nil {
                    // The types its app asked for: one it never asked to
                    // read delivers nothing, as on GET /v1/changes.
                    let types = try await store.typesAskedFor(webhook.sampleTypes)
                    guard !types.isEmpty else {
                        update(webhook.id) { $0.lastError = Self.nothingReadable }
                        return
                    }
                    session = try ChangeFeedSession(
                        store: store,
                        predicates: types.map { .sample(type: $0) },
                        since: try webhook.anchor.map { try HKQueryAnchor(string: $0) },
                        pageSize: configuration.webhookPageSize,
                        clock: configuration.clock
                    )
                }
                guard var feed = session else { continue }
                // Nothing new: wait for a commit that brings something.
                let page = try await feed.waitForChanges(timeout: nil)
                guard page.count > 0 else {
                    // Cancelled, or the store closed.
                    return
                }
                update(webhook.id) { $0.hasUndelivered = true }
                if let lastDelivery {
                    let waited = configuration.clock.now() - lastDelivery
                    let interval = webhook.frequency.minimumInterval
                    if waited < interval { try await configuration.clock.sleep(interval - waited) }
                }
                // A token revoked since the webhook began ends its deliveries.
                guard storeForPrincipal(webhook.principal) != nil else {
                    update(webhook.id) { $0.lastError = Self.noToken }
                    return
                }
                // The post and the anchor's move are not cut apart by the
                // deliveries' end (a store closing, the node stopping): a
                // change the receiver took is not sent again. The post's
                // time-out bounds the wait.
                var delivered = webhook
                delivered.anchor = page.newAnchor.stringValue
                let since = feed.anchor?.stringValue
                let unit = Task { [self, delivered] in
                    try await post(page, since: since, for: delivered, with: client)
                    try await webhooks.save(delivered)
                }
                try await unit.value
                webhook = delivered
                lastDelivery = configuration.clock.now()
                failures = 0
                backoff.reset()
                feed.advance(past: page)
                session = feed
                update(webhook.id) { status in
                    status.hasUndelivered = false
                    status.failures = 0
                    status.lastError = nil
                    status.lastDelivery = Date()
                    status.nextAttempt = nil
                }
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled { return }
                failures += 1
                let wait = backoff.next(using: &random)
                let message = Self.describe(error)
                logger.warning(
                    "a webhook delivery failed; trying again",
                    metadata: ["webhook": "\(webhook.id)", "failures": "\(failures)", "error": "\(message)"]
                )
                update(webhook.id) { status in
                    status.failures = failures
                    status.lastError = message
                    status.nextAttempt = Date().addingTimeInterval(wait.timeInterval)
                }
                do { try await configuration.clock.sleep(wait) } catch { return }
            }
        }
    }

    /// Posts one page, signed; throws unless the receiver answers 2xx.
    private func post(
        _ page: ChangeFeedPage,
        since: String?,
        for webhook: Webhook,
        with client: HTTPClient
    ) async throws {
        var encoding = FeedEncoding()
        let body = try encoding.page(page.changes, hasMore: page.hasMore)
        let bytes = Array(body.readableBytesView)
        var request = HTTPClientRequest(url: webhook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Anchorage-Webhook", value: webhook.id)
        request.headers.add(name: "Anchorage-Delivery", value: since ?? "start")
        request.headers.add(name: "Anchorage-Signature", value: webhook.signature(of: bytes))
        request.body = .bytes(body)
        let timeout = TimeAmount.milliseconds(Int64(configuration.webhookTimeout.timeInterval * 1_000))
        let response = try await client.execute(request, timeout: timeout)
        // Read a little of the answer, so the connection can be reused.
        _ = try? await response.body.collect(upTo: 4_096)
        guard (200..<300).contains(response.status.code) else {
            throw DeliveryRefused(status: Int(response.status.code))
        }
    }

    /// The status of a webhook none of whose types its app asked to read
    /// or share (when deliveries began).
    static let nothingReadable = "its app may read none of its types: nothing will be delivered"

    /// The status of a webhook whose app lost its last token.
    static let noToken = "its app has no token on this node any more"

    struct DeliveryRefused: Error, CustomStringConvertible {
        let status: Int
        var description: String { "the receiver answered \(status)" }
    }

    /// The back-off of a webhook's deliveries: replication's, from the
    /// initial wait doubling to the configured most, each wait drawn from
    /// its upper 40 % so that webhooks failing together do not retry together.
    static func backoff(_ configuration: NodeConfiguration) -> Backoff {
        Backoff(base: configuration.webhookInitialBackoff, maximum: configuration.webhookMaximumBackoff, jitter: 0.4)
    }

    /// A sentence for the status and the log, without health values.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let refused as DeliveryRefused: refused.description
        case let error as HTTPClientError where error == .connectTimeout || error == .readTimeout:
            "the receiver did not answer in time"
        case is HTTPClientError: "the receiver could not be reached"
        default: "the delivery could not be made"
        }
    }
}
