import CLMDB

/// A position in one database of a transaction, alive only inside
/// ``ReadableTransaction/withCursor(on:_:)``.
///
/// Movements hand the key and value at the new position to a closure and
/// return its result, or `nil` when there is no entry there:
///
/// ```swift
/// try txn.withCursor(on: log) { cursor in
///     let lastKey = try cursor.last { key, _ in Array(key) }
///     try cursor.scan(from: startKey) { key, value in
///         process(key, value)
///         return true  // keep going
///     }
/// }
/// ```
///
/// - Warning: Keys and values are LMDB's memory map; they must not be stored
///   or used after the closure that received them returns.
public struct Cursor: ~Copyable {
    /// What a movement hands the entry it reached to: its key and value,
    /// valid only during the call.
    public typealias EntryBody<R> = (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> R

    let pointer: OpaquePointer
    let transaction: TransactionHandle
    /// The environment of the cursor's database.
    unowned(unsafe) let environment: Environment
    /// The database, whose sealing (if any) every entry passes through.
    let database: Database

    deinit {
        mdb_cursor_close(pointer)
    }

    /// Moves with `operation` and returns the entry there, or `nil`.
    @inline(__always)
    private func move(_ operation: MDB_cursor_op, key: UnsafeRawBufferPointer? = nil) throws -> (MDB_val, MDB_val)? {
        var keyVal = key.map { MDB_val($0) } ?? MDB_val()
        var dataVal = MDB_val()
        let rc = environment.call("mdb_cursor_get") { mdb_cursor_get(pointer, &keyVal, &dataVal, operation) }
        guard try environment.checkFound(rc, "mdb_cursor_get", in: transaction) else { return nil }
        return (keyVal, dataVal)
    }

    /// Moves with `operation` and hands the entry there to `body`.
    private func visit<R>(_ operation: MDB_cursor_op, _ body: EntryBody<R>) throws -> R? {
        guard let (key, value) = try move(operation) else { return nil }
        return try database.withPlainEntry(key: key.bytes, value: value.bytes, body)
    }

    /// Moves to the first entry at or after the plain key `key`.
    private func moveAtOrAfter(_ key: UnsafeRawBufferPointer) throws -> (MDB_val, MDB_val)? {
        try database.withStoredKey(key) { try move(MDB_SET_RANGE, key: $0) }
    }

    /// Moves to the first entry.
    public func first<R>(_ body: EntryBody<R>) throws -> R? {
        try visit(MDB_FIRST, body)
    }

    /// Moves to the last entry.
    public func last<R>(_ body: EntryBody<R>) throws -> R? {
        try visit(MDB_LAST, body)
    }

    /// Moves to the next entry (the first one if the cursor is not positioned).
    public func next<R>(_ body: EntryBody<R>) throws -> R? {
        try visit(MDB_NEXT, body)
    }

    /// Moves to the previous entry (the last one if the cursor is not positioned).
    public func previous<R>(_ body: EntryBody<R>) throws -> R? {
        try visit(MDB_PREV, body)
    }

    /// Moves to the first entry whose key is greater than or equal to `key`
    /// (`MDB_SET_RANGE`).
    public func seek<R>(atOrAfter key: UnsafeRawBufferPointer, _ body: EntryBody<R>) throws -> R? {
        guard let (key, value) = try moveAtOrAfter(key) else { return nil }
        return try database.withPlainEntry(key: key.bytes, value: value.bytes, body)
    }

    /// Moves to the first entry whose key is greater than or equal to `key`.
    public func seek<R>(atOrAfter key: [UInt8], _ body: EntryBody<R>) throws -> R? {
        try key.withUnsafeBytes { try seek(atOrAfter: $0, body) }
    }

    /// Calls `body` for each entry in key order, from the first, until `body`
    /// returns `false` or the entries run out.
    ///
    /// - Complexity: O(1) per entry.
    public func scan(_ body: EntryBody<Bool>) throws {
        try scan(from: try move(MDB_FIRST), body)
    }

    /// Calls `body` for each entry in key order, starting at the first key
    /// greater than or equal to `startKey`, until `body` returns `false` or
    /// the entries run out.
    ///
    /// - Complexity: O(log *n*) to find the start, then O(1) per entry.
    public func scan(from startKey: UnsafeRawBufferPointer, _ body: EntryBody<Bool>) throws {
        try scan(from: try moveAtOrAfter(startKey), body)
    }

    /// Calls `body` for each entry in key order from `startKey`; see
    /// ``scan(from:_:)-(UnsafeRawBufferPointer,_)``.
    public func scan(from startKey: [UInt8], _ body: EntryBody<Bool>) throws {
        try startKey.withUnsafeBytes { try scan(from: $0, body) }
    }

    /// Calls `body` for each entry in key order from `startKey`, as
    /// ``scan(from:_:)-(UnsafeRawBufferPointer,_)`` does, with its value
    /// opened only if `body` asks for it: in a sealed database, a scan
    /// that decides by the key first opens only the values it keeps.
    public func scanKeys(
        from startKey: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer, EntryValue) throws -> Bool
    ) throws {
        var entry = try moveAtOrAfter(startKey)
        while let (key, value) = entry {
            let storedKey = key.bytes
            let more = try database.withPlainKey(storedKey) { plainKey in
                try body(plainKey, EntryValue(stored: value.bytes, storedKey: storedKey, database: database))
            }
            guard more else { return }
            entry = try move(MDB_NEXT)
        }
    }

    /// Calls `body` for each entry in key order from `startKey`; see
    /// ``scanKeys(from:_:)-(UnsafeRawBufferPointer,_)``.
    public func scanKeys(from startKey: [UInt8], _ body: (UnsafeRawBufferPointer, EntryValue) throws -> Bool) throws {
        try startKey.withUnsafeBytes { try scanKeys(from: $0, body) }
    }

    private func scan(from start: (MDB_val, MDB_val)?, _ body: EntryBody<Bool>) throws {
        var entry = start
        while let (key, value) = entry {
            guard try database.withPlainEntry(key: key.bytes, value: value.bytes, body) else { return }
            entry = try move(MDB_NEXT)
        }
    }

    /// Calls `body` for each entry in reverse key order, starting at the last
    /// key less than or equal to `startKey` (or at the last entry), until
    /// `body` returns `false` or the entries run out.
    public func scanReversed(from startKey: [UInt8]? = nil, _ body: EntryBody<Bool>) throws {
        var entry: (MDB_val, MDB_val)?
        if let startKey {
            entry = try startKey.withUnsafeBytes { plain in
                try database.withStoredKey(plain) { start in
                    guard let found = try move(MDB_SET_RANGE, key: start) else { return try move(MDB_LAST) }
                    // SET_RANGE lands on the first key >= start; step back if it is greater.
                    if found.0.bytes.elementsEqual(start) { return found }
                    return try move(MDB_PREV)
                }
            }
        } else {
            entry = try move(MDB_LAST)
        }
        while let (key, value) = entry {
            guard try database.withPlainEntry(key: key.bytes, value: value.bytes, body) else { return }
            entry = try move(MDB_PREV)
        }
    }
}

@available(*, unavailable, message: "a cursor belongs to the closure that received it")
extension Cursor: Sendable {}

/// The value of the entry a ``Cursor/scanKeys(from:_:)-(UnsafeRawBufferPointer,_)``
/// reached, opened (in a sealed database) only when read. Valid only
/// during the call that received it, like the key.
public struct EntryValue {
    let stored: UnsafeRawBufferPointer
    let storedKey: UnsafeRawBufferPointer
    let database: Database

    /// Calls `body` with the value's plain bytes.
    ///
    /// - Throws: what the database's sealing throws when the value does not
    ///   open, or what `body` throws.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try database.withPlainValue(stored, storedKey: storedKey, body)
    }
}

@available(*, unavailable, message: "a value belongs to the closure that received it")
extension EntryValue: Sendable {}
