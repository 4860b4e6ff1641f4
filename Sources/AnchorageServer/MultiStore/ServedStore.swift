import Anchorage
import AnchorageLog
import AnchorageService
import AsyncHTTPClient
import Foundation
import Logging
import Synchronization

/// One store of a multi-store node while it is open: its owner's
/// `HKHealthStore` and one per app that reached it, all sharing one
/// engine, and the apps' grants recorded in its log as the owner's
/// decisions (as a single-store node records its token file's).
final class ServedStore: Sendable {
    let name: StoreName
    let owner: HKHealthStore
    /// Who read what of this store (node-local, never replicated).
    let accessLog: AccessLog
    /// Fired when the store is being deleted: its followed feeds and
    /// waiting peers end.
    let closing = ShutdownSignal()
    /// What its replicas confirmed, while it is open.
    let followers: ReplicaFollowers
    private let directory: URL
    private let principals = Mutex<[String: HKHealthStore]>([:])
    private let grants = GrantRecorder()
    /// The grants of the tokens that reached this store since it opened.
    private let tokens = Mutex<[String: AccessPolicy.Token]>([:])

    /// The store's webhooks, delivering while it is open; `nil` when the
    /// node posts none.
    var webhooks: WebhookDeliverer? { webhookSlot.withLock { $0 } }
    private let webhookSlot = Mutex<WebhookDeliverer?>(nil)
    /// Tells the node's peer scheduler each time the log moves.
    private let changeWatch = Mutex<Task<Void, Never>?>(nil)

    private init(name: StoreName, owner: HKHealthStore, accessLog: AccessLog, directory: URL, clock: StoreClock) {
        self.name = name
        self.owner = owner
        self.accessLog = accessLog
        self.directory = directory
        followers = ReplicaFollowers(clock: clock)
    }

    /// Opens the store of `name` in `directory` (on the store's own opening
    /// thread, never on the cooperative pool).
    static func open(
        _ name: StoreName,
        directory: URL,
        configuration: HKHealthStore.Configuration,
        accessLogRetention: LocalRecordRetention,
        clock: StoreClock
    ) async throws -> ServedStore {
        let owner = HKHealthStore(directory: directory, configuration: configuration)
        let accessLog: AccessLog
        do {
            try await owner.opened()
            accessLog = AccessLog(log: try owner.eventLog(), retention: accessLogRetention, clock: clock)
        } catch {
            await owner.close()
            throw error
        }
        return ServedStore(name: name, owner: owner, accessLog: accessLog, directory: directory, clock: clock)
    }

    /// Starts delivering the store's webhooks with `client`: from each
    /// webhook's saved anchor, so what changed since the store last closed
    /// goes out now. `registry` names the apps webhooks act for.
    func deliverWebhooks(
        with client: HTTPClient,
        registry: NodeRegistry,
        configuration: NodeConfiguration,
        logger: Logger
    ) throws {
        let deliverer = WebhookDeliverer(log: try owner.eventLog(), configuration: configuration, logger: logger) {
            [weak self] principal in
            self?.store(forPrincipal: principal, registry: registry)
        }
        webhookSlot.withLock { $0 = deliverer }
        deliverer.begin(with: client)
    }

    /// Calls `changed` with the log's head as the watch begins (`moved`
    /// false), then each time the log moves (a save, a delete, a peer's
    /// push), until the store closes.
    func watchChanges(_ changed: @escaping @Sendable (_ head: Anchor, _ moved: Bool) -> Void) throws {
        let changes = try owner.eventLog().headChanges()
        let task = Task {
            var moved = false
            for await head in changes {
                changed(head, moved)
                moved = true
            }
        }
        changeWatch.withLock { $0 = task }
    }

    /// The log's head now.
    func head() throws -> Anchor {
        try owner.eventLog().head
    }

    /// The anchor a store update names for `head`: its text, or with
    /// `portable` the log's head with its version vector (valid on every
    /// copy of a fleet's store); `nil` when the store cannot be read.
    func updateAnchor(_ head: Anchor, portable: Bool) -> String? {
        portable ? try? owner.portableHeadAnchor() : head.stringValue
    }

    /// The store acting as `principal` (a bundle identifier; `nil` for the
    /// owner), or `nil` when no token of this store names that app now
    /// (asked of the registry each time: a revocation counts at once).
    func store(forPrincipal principal: String?, registry: NodeRegistry) -> HKHealthStore? {
        guard let principal else { return owner }
        guard let grant = try? registry.tokens(of: name).first(where: { $0.grant.app == principal })?.grant else {
            return nil
        }
        if let known = principals.withLock({ $0[principal] }) { return known }
        return store(
            for: AccessPolicy.Token(
                secret: "",
                principal: HKSource(name: grant.appName ?? principal, bundleIdentifier: principal),
                read: [],
                share: []
            )
        )
    }

    /// The store acting as the token's principal: the owner's, or the app's.
    func store(for token: AccessPolicy.Token) -> HKHealthStore {
        guard let principal = token.principal else { return owner }
        return principals.withLock { stores in
            if let store = stores[principal.bundleIdentifier] { return store }
            let store = HKHealthStore(directory: directory, principal: principal)
            stores[principal.bundleIdentifier] = store
            return store
        }
    }

    /// What `token` may do in this store, its grants recorded in the log
    /// first (with those of every token of this store the registry holds)
    /// unless a run since the store opened covered it. Kept per token id, so
    /// a request pays for neither the recording nor the parsing again; a
    /// revoked token never gets here (the registry refuses it first).
    func access(for token: TokenRecord, tokens source: TokenSource) async throws -> AccessPolicy.Token {
        if let known = tokens.withLock({ $0[token.id] }) { return known }
        // A fleet's secret acts as the owner: it needs no grants recorded
        // (and a replica's log takes no entries of its own).
        if token.id == TokenRecord.fleetID { return try AccessPolicy.Token(token.grant) }
        try await grants.ensure(token.id) { [owner, name] in
            let tokens = try source.tokens(name)
            let policy = AccessPolicy(tokens: try tokens.map { try AccessPolicy.Token($0.grant) })
            try await AnchorageNode.recordGrants(policy, owner: owner)
            return Set(tokens.map(\.id))
        }
        let access = try AccessPolicy.Token(token.grant)
        tokens.withLock { $0[token.id] = access }
        return access
    }

    /// Closes the store; returns whether its webhooks had changes they had
    /// not delivered (the node opens it again later to retry them).
    @discardableResult
    func close() async -> Bool {
        let undelivered = await webhooks?.end() ?? false
        if let watch = changeWatch.withLock({ $0.take() }) {
            watch.cancel()
            await watch.value
        }
        for store in principals.withLock({ Array($0.values) }) { await store.close() }
        await owner.close()
        return undelivered
    }
}

/// Records grants one run at a time; a token whose grants a finished run
/// covered needs no other.
private actor GrantRecorder {
    private var recorded: Set<String> = []
    private var running: Task<Set<String>, any Error>?

    func ensure(_ id: String, _ record: @escaping @Sendable () async throws -> Set<String>) async throws {
        while !recorded.contains(id) {
            if let running {
                recorded.formUnion((try? await running.value) ?? [])
                if self.running == running { self.running = nil }
                continue
            }
            let task = Task { try await record() }
            running = task
            let ids = try await task.value
            recorded.formUnion(ids)
            running = nil
            if !ids.contains(id) { return }  // revoked meanwhile: the auth check refuses it
        }
    }
}

extension AccessPolicy.Token {
    /// A consumer's token: it reads its grant's types in any store, as
    /// `consumer:<token id>`.
    init(consumer record: TokenRecord) throws {
        let read = try record.grant.read.map { name -> HKObjectType in
            TextForms.isActivitySummary(name) ? HKObjectType.activitySummaryType() : try TextForms.sampleType(name)
        }
        self.init(
            secret: "",
            principal: HKSource(name: "consumer \(record.id)", bundleIdentifier: "consumer:\(record.id)"),
            read: Set(read),
            share: []
        )
    }

    /// The token a registry grant stands for (its secret is not needed: the
    /// registry matched it already).
    init(_ grant: TokenGrant) throws {
        if grant.owner {
            self = .owner("", replicates: grant.replicates)
        } else if let app = grant.app {
            let read = try grant.read.map { name -> HKObjectType in
                TextForms.isActivitySummary(name) ? HKObjectType.activitySummaryType() : try TextForms.sampleType(name)
            }
            self.init(
                secret: "",
                principal: HKSource(name: grant.appName ?? app, bundleIdentifier: app),
                read: Set(read),
                share: Set(try grant.share.map { try TextForms.sampleType($0) })
            )
        } else {
            self = .peer("")
        }
    }
}
