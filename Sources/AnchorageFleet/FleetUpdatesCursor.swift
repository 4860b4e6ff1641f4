/// A position in a fleet's store-updates feed (`GET /v1/store-updates` on
/// a fleet node): the feed's id (24 hex digits: etcd's cluster id and the
/// fleet's root), an etcd revision, and where in it.
///
/// - `<feed>-<revision>-<n>`: every update of the revisions before
///   `revision` and the first `n` of `revision` were seen;
/// - `<feed>-<revision>-l<store>`: the listing of every store as of
///   `revision` (the feed read from its beginning) reached `store`.
///
/// ```swift
/// let cursor = try FleetUpdatesCursor(parsing: "00000000000000010a1b2c3d-120-0")
/// cursor.revision     // 120
/// ```
public struct FleetUpdatesCursor: Sendable, Hashable, CustomStringConvertible {
    /// Where in the revision.
    public enum Position: Sendable, Hashable {
        /// The first `count` updates of the revision were seen.
        case updates(seen: Int)
        /// The listing at the revision reached this store (`nil`: begun).
        case listing(after: String?)
    }

    /// The feed's id: 24 lowercase hex digits.
    public var feed: String
    public var revision: Int64
    public var position: Position

    public init(feed: String, revision: Int64, position: Position) {
        self.feed = feed
        self.revision = revision
        self.position = position
    }

    /// Parses the text form.
    ///
    /// - Throws: ``FleetError`` `invalidCursor` for anything else.
    public init(parsing text: String) throws(FleetError) {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        let refused = FleetError(
            .invalidCursor,
            "'\(text.prefix(60))' is not a fleet store-updates cursor: give the newCursor of a page, or now"
        )
        guard parts.count == 3, parts[0].utf8.count == 24, parts[0].utf8.allSatisfy(Self.isHexDigit),
            parts[1].utf8.count <= 19, let revision = Int64(parts[1]), revision > 0,
            parts[1].utf8.allSatisfy({ (48...57).contains($0) })
        else { throw refused }
        let rest = parts[2]
        let position: Position
        if rest.hasPrefix("l") {
            // A store id (docs/openapi.yaml: `[a-z0-9][a-z0-9_-]{0,63}`), or empty.
            let store = String(rest.dropFirst())
            let bytes = Array(store.utf8)
            guard bytes.count <= 64, bytes.first.map(Self.isIDStart) ?? true,
                bytes.allSatisfy({ Self.isIDStart($0) || $0 == 0x2D || $0 == 0x5F })
            else { throw refused }
            position = .listing(after: store.isEmpty ? nil : store)
        } else {
            guard rest.utf8.count <= 9, rest.utf8.allSatisfy({ (48...57).contains($0) }), let seen = Int(rest)
            else { throw refused }
            position = .updates(seen: seen)
        }
        self.init(feed: String(parts[0]), revision: revision, position: position)
    }

    public var description: String {
        switch position {
        case .updates(let seen): "\(feed)-\(revision)-\(seen)"
        case .listing(let after): "\(feed)-\(revision)-l\(after ?? "")"
        }
    }

    /// Whether `text` has a fleet cursor's shape (24 hex digits, then `-`).
    public static func looksLikeOne(_ text: String) -> Bool {
        let utf8 = Array(text.utf8.prefix(25))
        return utf8.count == 25 && utf8[24] == 0x2D && utf8[..<24].allSatisfy(isHexDigit)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }

    /// A digit or a lowercase letter: what a store id begins with.
    static func isIDStart(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...122).contains(byte) }
}

/// One entry of a fleet's store-updates feed: a store whose log moved,
/// named with the anchors of its primary's copy (each valid on every copy).
public struct FleetStoreUpdate: Sendable, Hashable {
    /// Where to resume after this update.
    public var cursor: FleetUpdatesCursor
    public var store: String
    /// The anchor published before this one; `nil`: from the beginning
    /// (the store's first update, or the listing of a feed read from its
    /// start).
    public var since: String?
    public var anchor: String
}

/// A page of a fleet's store-updates feed.
public struct FleetUpdatesPage: Sendable, Hashable {
    public var updates: [FleetStoreUpdate]
    public var hasMore: Bool
    public var newCursor: FleetUpdatesCursor
}
