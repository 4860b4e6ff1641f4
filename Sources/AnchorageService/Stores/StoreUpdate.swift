/// One entry of a node's store-updates feed (`GET /v1/store-updates`): a
/// store whose log moved from one anchor to another, or a store deleted.
/// It names the store and anchors, never a health value.
///
/// A consumer reads the store's own change feed from ``since`` (the
/// beginning when `nil`) to ``anchor``: the entries of one store cover its
/// log without gaps, in order.
///
/// ```swift
/// for update in page.updates where update.kind == .changed {
///     let changes = try await client.changes(of: update.store, since: update.since)
/// }
/// ```
public struct StoreUpdate: Codable, Sendable, Hashable {
    /// What happened to the store.
    public enum Kind: String, Codable, Sendable {
        /// Its log moved from ``StoreUpdate/since`` to ``StoreUpdate/anchor``.
        case changed
        /// It was deleted (and its data erased); a store created later
        /// with the same id is a new store, whose first update has no
        /// ``StoreUpdate/since``.
        case deleted
    }

    /// The update's position in the node's feed.
    public var seq: UInt64
    /// The store's id.
    public var store: String
    public var kind: Kind
    /// The store's anchor before these changes (its change feed's `since`);
    /// `nil`: from the beginning of the store.
    public var since: String?
    /// The store's anchor after them; `nil` for a deletion.
    public var anchor: String?

    public init(seq: UInt64, store: String, kind: Kind, since: String?, anchor: String?) {
        self.seq = seq
        self.store = store
        self.kind = kind
        self.since = since
        self.anchor = anchor
    }
}

/// A page of the store-updates feed.
public struct StoreUpdatesPage: Sendable, Hashable {
    /// The updates after the cursor asked for, oldest first.
    public var updates: [StoreUpdate]
    /// Whether more updates follow the last one.
    public var hasMore: Bool
    /// The cursor to give next: after the last update of the page, or the
    /// one asked for when the page is empty.
    public var newCursor: StoreUpdatesCursor
}

/// A position in a node's store-updates feed: the registry's id and a
/// sequence number, written `<32 hex digits>-<seq>`. A cursor from another
/// node, or from a registry restored from an older backup (past its head),
/// is refused rather than read from a wrong place.
public struct StoreUpdatesCursor: Sendable, Hashable, CustomStringConvertible {
    /// The registry's id (16 random bytes, as 32 lowercase hex digits).
    public var registry: String
    /// The last update seen; 0 before the first.
    public var seq: UInt64

    public init(registry: String, seq: UInt64) {
        self.registry = registry
        self.seq = seq
    }

    /// Parses the text form.
    ///
    /// - Throws: ``ServiceError`` `.invalidCursor` for anything else.
    public init(parsing text: String) throws(ServiceError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 32,
            parts[0].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
            parts[1].utf8.count <= 20, parts[1].utf8.allSatisfy({ (48...57).contains($0) }),
            let seq = UInt64(parts[1])
        else {
            throw ServiceError(
                .invalidCursor,
                "'\(text.prefix(60))' is not a store-updates cursor: give the newCursor of a page (32 hex digits, '-', a number), or now"
            )
        }
        self.init(registry: String(parts[0]), seq: seq)
    }

    public var description: String { "\(registry)-\(seq)" }
}
