/// How a database's keys and values are transformed on their way to the
/// file and back: an application seals what it stores without changing
/// the code that reads and writes it.
///
/// A ``Database`` given a sealing (``Database/sealed(by:)``) hands every
/// key it is given to ``storeKey(_:into:)`` before LMDB sees it, and every
/// key LMDB returns to ``plainKey(_:into:)`` before the caller sees it;
/// values go through ``seal(_:storedKey:into:)`` and
/// ``openValue(_:storedKey:into:)``. The buffers are the database's, on
/// the stack, and plain values are wiped after use. Callers keep reading and writing
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
    /// How many bytes longer a stored key is than its plain key, at most.
    var keyGrowth: Int { get }

    /// Whether values are sealed; when `false` they are stored as they are.
    var sealsValues: Bool { get }

    /// Writes the stored form of `key` into `output` (at least
    /// `key.count + keyGrowth` bytes); returns the count written.
    func storeKey(_ key: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int

    /// Writes the plain form of the stored key `stored` into `output` (at
    /// least `stored.count` bytes); returns the count written.
    ///
    /// - Throws: when `stored` does not open (the file was changed or
    ///   written under another key).
    func plainKey(_ stored: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> Int

    /// The size of the sealed form of a value of `count` bytes.
    func sealedCount(ofValueCount count: Int) -> Int

    /// Seals `value`, stored under `storedKey`, into `output`
    /// (``sealedCount(ofValueCount:)`` bytes).
    func seal(
        _ value: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    )

    /// Writes the plain form of `sealed`, stored under `storedKey`, into
    /// `output` (at least `sealed.count` bytes); returns the count written.
    ///
    /// - Throws: when `sealed` does not open.
    func openValue(
        _ sealed: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws -> Int
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
        return try withUnsafeTemporaryAllocation(byteCount: key.count + sealing.keyGrowth, alignment: 8) { buffer in
            let count = sealing.storeKey(key, into: buffer)
            return try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Calls `body` with the stored forms of `key` and `value`: when
    /// sealed, both written into one buffer on the stack.
    @inline(__always)
    func withStoredEntry<R>(
        key: UnsafeRawBufferPointer,
        value: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        guard let sealing else { return try body(key, value) }
        let valueCount = sealing.sealsValues ? sealing.sealedCount(ofValueCount: value.count) : 0
        return try withUnsafeTemporaryAllocation(
            byteCount: key.count + sealing.keyGrowth + valueCount,
            alignment: 8
        ) { buffer in
            let keyCount = sealing.storeKey(key, into: buffer)
            let storedKey = UnsafeRawBufferPointer(rebasing: buffer[..<keyCount])
            guard sealing.sealsValues else { return try body(storedKey, value) }
            let storedValue = UnsafeMutableRawBufferPointer(rebasing: buffer[keyCount..<keyCount + valueCount])
            sealing.seal(value, storedKey: storedKey, into: storedValue)
            return try body(storedKey, UnsafeRawBufferPointer(storedValue))
        }
    }

    /// Calls `body` with the plain key and value of a stored entry.
    @inline(__always)
    func withPlainEntry<R>(
        key: UnsafeRawBufferPointer,
        value: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        guard sealing != nil else { return try body(key, value) }
        return try withPlainKey(key) { plainKey in
            try withPlainValue(value, storedKey: key) { plainValue in try body(plainKey, plainValue) }
        }
    }

    /// Calls `body` with the plain form of a stored key.
    @inline(__always)
    func withPlainKey<R>(_ key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard let sealing else { return try body(key) }
        return try withUnsafeTemporaryAllocation(byteCount: key.count, alignment: 8) { buffer in
            let count = try sealing.plainKey(key, into: buffer)
            return try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Calls `body` with the plain form of a value stored under `storedKey`.
    @inline(__always)
    func withPlainValue<R>(
        _ value: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        guard let sealing, sealing.sealsValues else { return try body(value) }
        // The plain bytes live on the stack, and are overwritten before the
        // call returns.
        return try withUnsafeTemporaryAllocation(byteCount: max(value.count, 1), alignment: 8) { buffer in
            defer { buffer.initializeMemory(as: UInt8.self, repeating: 0) }
            let count = try sealing.openValue(value, storedKey: storedKey, into: buffer)
            return try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
