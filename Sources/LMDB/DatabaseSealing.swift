/// How a database's keys and values are transformed on their way to the
/// file and back: an application seals what it stores without changing
/// the code that reads and writes it.
///
/// A ``Database`` given a sealing (``Database/sealed(by:)``) hands every
/// key it is given to ``withStoredKey(_:_:)`` before LMDB sees it, and
/// every key LMDB returns to ``withPlainKey(_:_:)`` before the caller sees
/// it; values go through ``seal(_:storedKey:into:)`` and
/// ``withOpenedValue(_:storedKey:_:)``. Callers keep reading and writing
/// plain keys and values, inside closures as before:
///
/// ```swift
/// let sealed = database.sealed(by: cipher)
/// try environment.write { txn in try txn.put(value, forKey: key, in: sealed) }
/// let back = try environment.read { txn in try txn.value(forKey: key, in: sealed) }  // == value
/// ```
///
/// The key transform must be deterministic and invertible, and must map
/// the keys that share a prefix (as the sealing's layout counts prefixes)
/// to stored keys that share a prefix, so that lookups and prefix scans
/// keep working; order between prefixes need not be kept. A value's
/// sealing must be deterministic too when the application compares
/// rebuilt databases byte for byte.
public protocol DatabaseSealing: AnyObject, Sendable {
    /// Calls `body` with the stored form of `key`.
    func withStoredKey<R>(_ key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R

    /// Calls `body` with the plain form of the stored key `stored`.
    ///
    /// - Throws: when `stored` does not open (the file was changed or
    ///   written under another key).
    func withPlainKey<R>(_ stored: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R

    /// The size of the sealed form of a value of `count` bytes.
    func sealedCount(ofValueCount count: Int) -> Int

    /// Seals `value`, stored under `storedKey`, into `output`
    /// (``sealedCount(ofValueCount:)`` bytes).
    func seal(
        _ value: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    )

    /// Calls `body` with the plain form of `sealed`, stored under
    /// `storedKey`.
    ///
    /// - Throws: when `sealed` does not open.
    func withOpenedValue<R>(
        _ sealed: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R
}

extension Database {
    /// This database, its keys and values sealed by `sealing` (nothing
    /// changes in the file until the handle writes).
    public func sealed(by sealing: any DatabaseSealing) -> Database {
        Database(dbi: dbi, name: name, inCompanion: inCompanion, sealing: sealing)
    }

    /// Whether the handle seals what it writes and opens what it reads.
    public var isSealed: Bool { sealing != nil }

    /// Calls `body` with the stored form of `key`: `key` itself for a
    /// database without a sealing.
    @inline(__always)
    func withStoredKey<R>(_ key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard let sealing else { return try body(key) }
        return try sealing.withStoredKey(key, body)
    }

    /// Calls `body` with the plain key and value of a stored entry.
    @inline(__always)
    func withPlainEntry<R>(
        key: UnsafeRawBufferPointer,
        value: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        guard let sealing else { return try body(key, value) }
        return try sealing.withPlainKey(key) { plainKey in
            try sealing.withOpenedValue(value, storedKey: key) { plainValue in try body(plainKey, plainValue) }
        }
    }

    /// Calls `body` with the plain form of a value stored under `storedKey`.
    @inline(__always)
    func withPlainValue<R>(
        _ value: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        guard let sealing else { return try body(value) }
        return try sealing.withOpenedValue(value, storedKey: storedKey, body)
    }

    /// Calls `body` with the stored form of `value`, to be stored under
    /// `storedKey`.
    @inline(__always)
    func withStoredValue<R>(
        _ value: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        guard let sealing else { return try body(value) }
        return try withUnsafeTemporaryAllocation(
            byteCount: sealing.sealedCount(ofValueCount: value.count),
            alignment: 8
        ) { buffer in
            sealing.seal(value, storedKey: storedKey, into: buffer)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }
}
