import LMDB

extension EventLog {
    /// Sets named cursors, durably and atomically: a `nil` value removes
    /// one. Cursors are a consumer's own position (a webhook's last
    /// delivered anchor, an app's acknowledged background delivery): they
    /// belong to this node alone, are never replicated, and are outside the
    /// hash chain and the state digest. The change waits its turn with the
    /// writer's batches and is durable when this returns.
    ///
    /// ```swift
    /// try await log.setCursors(["webhook/42": Array(anchor.stringValue.utf8)])
    /// ```
    ///
    /// - Throws: ``LogError`` `invalidArgument` for an empty name or one over
    ///   500 bytes (LMDB's key limit), a value over 64 KiB; storage errors.
    public func setCursors(_ changes: [(name: String, value: [UInt8]?)]) async throws {
        guard !changes.isEmpty else { return }
        var bytes = 0
        for (name, value) in changes {
            guard !name.isEmpty, name.utf8.count <= 500 else {
                throw LogError(.invalidArgument, "a cursor name has 1 to 500 bytes")
            }
            guard (value?.count ?? 0) <= 65_536 else {
                throw LogError(.invalidArgument, "the value of cursor \(name) is over 64 KiB")
            }
            bytes += name.utf8.count + (value?.count ?? 0)
        }
        let outcome = try await writing().submit(.setCursors(changes), entryCount: 0, byteCount: bytes)
        guard case .cursorsSet = outcome else { preconditionFailure("setting cursors produced \(outcome)") }
    }

    /// The value of the cursor `name`, or `nil`.
    public func cursor(_ name: String) throws -> [UInt8]? {
        try read { txn in try txn.value(forKey: Array(name.utf8), in: databases.cursors) }
    }

    /// Every cursor whose name starts with `prefix`, in name order.
    public func cursors(withPrefix prefix: String) throws -> [(name: String, value: [UInt8])] {
        let start = Array(prefix.utf8)
        return try read { txn in
            var found: [(name: String, value: [UInt8])] = []
            try txn.withCursor(on: databases.cursors) { cursor in
                try cursor.scan(from: start) { key, value in
                    guard key.starts(with: start) else { return false }
                    found.append((String(decoding: key, as: UTF8.self), Array(value)))
                    return true
                }
            }
            return found
        }
    }
}
