import Anchorage

/// What a token may do in one store: act as its owner, or as an app with
/// the types it may read and share, and whether it may replicate. The
/// same grants as a node's token file (docs/http-api.md). An
/// administrator's token (``administrator()``) reaches no store's data; it
/// creates and deletes stores and issues and revokes their tokens.
///
/// ```swift
/// let grant = TokenGrant(
///     store: try StoreName("alice"),
///     app: "com.example.dashboard", read: ["stepCount", "heartRate"])
/// ```
public struct TokenGrant: Codable, Sendable, Hashable {
    /// The store the token reaches; no other. Empty for an administrator's.
    public var store: String
    /// Whether the token is the node administrator's: it manages stores
    /// and tokens (`/v1/stores`, `/metrics`) and reads no store's data.
    public var admin = false
    /// Whether the token acts as the store's owner.
    public var owner: Bool
    /// The app the token acts as (its bundle identifier); `nil` for the
    /// owner and for a peer's token.
    public var app: String?
    /// The app's name as sources show it; its bundle identifier when `nil`.
    public var appName: String?
    /// The type identifiers the app may read (`activitySummary` included).
    public var read: [String]
    /// The sample type identifiers the app may save and delete.
    public var share: [String]
    /// Whether the token may replicate the store (`/sync`).
    public var replicates: Bool
    /// Whether the token is a consumer's of the whole node: it reads the
    /// store-updates feed (`GET /v1/store-updates`) and the change feed of
    /// every store, of the ``read`` types only, and nothing else. Bound to
    /// no store.
    public var consumer = false

    /// Whether the token is bound to no store (an administrator's or a
    /// consumer's).
    public var isNodeWide: Bool { admin || consumer }

    /// An owner's token for `store`.
    public init(store: StoreName, owner: Bool, replicates: Bool = false) {
        self.init(
            store: store.rawValue,
            owner: owner,
            app: nil,
            appName: nil,
            read: [],
            share: [],
            replicates: replicates
        )
    }

    /// An app's token for `store`.
    public init(store: StoreName, app: String, appName: String? = nil, read: [String] = [], share: [String] = []) {
        self.init(
            store: store.rawValue,
            owner: false,
            app: app,
            appName: appName,
            read: read,
            share: share,
            replicates: false
        )
    }

    /// A token of a consumer of every store's changes of the `read` types
    /// (names or identifiers; `activitySummary` included).
    ///
    /// ```swift
    /// let grant = TokenGrant.consumer(read: ["stepCount", "heartRate"])
    /// ```
    public static func consumer(read: [String]) -> TokenGrant {
        var grant = TokenGrant(
            store: "",
            owner: false,
            app: nil,
            appName: nil,
            read: read,
            share: [],
            replicates: false
        )
        grant.consumer = true
        return grant
    }

    /// A token of the node's administrator.
    public static func administrator() -> TokenGrant {
        var grant = TokenGrant(store: "", owner: false, app: nil, appName: nil, read: [], share: [], replicates: false)
        grant.admin = true
        return grant
    }

    init(
        store: String,
        owner: Bool,
        app: String?,
        appName: String?,
        read: [String],
        share: [String],
        replicates: Bool
    ) {
        self.store = store
        self.owner = owner
        self.app = app
        self.appName = appName
        self.read = read
        self.share = share
        self.replicates = replicates
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        store = try container.decode(String.self, forKey: .store)
        admin = try container.decodeIfPresent(Bool.self, forKey: .admin) ?? false
        owner = try container.decode(Bool.self, forKey: .owner)
        app = try container.decodeIfPresent(String.self, forKey: .app)
        appName = try container.decodeIfPresent(String.self, forKey: .appName)
        read = try container.decode([String].self, forKey: .read)
        share = try container.decode([String].self, forKey: .share)
        replicates = try container.decode(Bool.self, forKey: .replicates)
        consumer = try container.decodeIfPresent(Bool.self, forKey: .consumer) ?? false
    }

    private enum CodingKeys: String, CodingKey {
        case store, admin, owner, app, appName, read, share, replicates, consumer
    }

    /// `consumer` is written only when true, so other grants keep their form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(store, forKey: .store)
        try container.encode(admin, forKey: .admin)
        try container.encode(owner, forKey: .owner)
        try container.encodeIfPresent(app, forKey: .app)
        try container.encodeIfPresent(appName, forKey: .appName)
        try container.encode(read, forKey: .read)
        try container.encode(share, forKey: .share)
        try container.encode(replicates, forKey: .replicates)
        if consumer { try container.encode(true, forKey: .consumer) }
    }

    /// Checks the grant as a token file's entry is checked.
    func validate() throws(ServiceError) {
        if consumer {
            guard store.isEmpty, !admin, !owner, app == nil, appName == nil, share.isEmpty, !replicates else {
                throw ServiceError(
                    .invalidGrant,
                    "a consumer's token reaches every store's changes and has no other grant"
                )
            }
            guard !read.isEmpty else {
                throw ServiceError(
                    .invalidGrant,
                    "name the types a consumer reads (stepCount, heartRate, activitySummary…)"
                )
            }
            for name in read where !TextForms.isActivitySummary(name) {
                try Self.sampleType(name)
            }
            return
        }
        if admin {
            guard store.isEmpty, !owner, app == nil, appName == nil, read.isEmpty, share.isEmpty, !replicates else {
                throw ServiceError(.invalidGrant, "an administrator's token reaches no store and has no other grant")
            }
            return
        }
        if owner {
            guard app == nil, read.isEmpty, share.isEmpty else {
                throw ServiceError(.invalidGrant, "an owner's token has no app, read or share")
            }
            return
        }
        guard let app else {
            guard replicates, read.isEmpty, share.isEmpty else {
                throw ServiceError(.invalidGrant, "name the app the token acts as, or make it the owner's or a peer's")
            }
            return
        }
        guard !replicates else {
            throw ServiceError(.invalidGrant, "an app's token cannot replicate; give peers a token of their own")
        }
        guard !app.isEmpty, app.utf8.count <= 255 else {
            throw ServiceError(.invalidGrant, "an app's bundle identifier has 1 to 255 bytes")
        }
        guard !app.hasPrefix("consumer:") else {
            throw ServiceError(.invalidGrant, "'consumer:' begins the names of node consumers, not of apps")
        }
        for name in read where !TextForms.isActivitySummary(name) {
            try Self.sampleType(name)
        }
        for name in share {
            guard !(try Self.sampleType(name) is HKCorrelationType) else {
                throw ServiceError(.invalidGrant, "correlation types cannot be shared; share their members' types")
            }
        }
    }

    @discardableResult
    private static func sampleType(_ name: String) throws(ServiceError) -> HKSampleType {
        do {
            return try TextForms.sampleType(name)
        } catch {
            throw ServiceError(.invalidGrant, "\(error)")
        }
    }
}
