import Foundation
public import LMDB

/// The sealing of one projection database of a sealed store: its keys by
/// their ``ProjectionKeyLayout``, its values (unless it keeps none) under
/// the projections subkey. Handed to LMDB as the database's
/// ``DatabaseSealing``, so the projections' code reads and writes plain
/// keys and values.
final class SealedProjectionDatabase: DatabaseSealing {
    let cipher: ProjectionCipher
    let layout: ProjectionKeyLayout
    let sealsValues: Bool
    let keyGrowth: Int
    /// The database's name and a zero byte: the start of every piece of
    /// associated data, so nothing sealed for one database opens in another.
    private let prefix: [UInt8]
    /// Keys whose only sealed part is the kind in front (most of them):
    /// read and written without walking the layout.
    private let kindOnly: Bool

    init(name: String, layout: ProjectionKeyLayout, sealsValues: Bool, cipher: ProjectionCipher) {
        self.cipher = cipher
        self.layout = layout
        self.sealsValues = sealsValues
        prefix = Array(name.utf8) + [0]
        keyGrowth = layout.growth
        kindOnly = layout.parts == [.kind]
    }

    private func failure(_ what: String) -> LogError {
        LogError(
            .wrongKey,
            "a \(what) of the projection database \(String(decoding: prefix.dropLast(), as: UTF8.self)) does not "
                + "open under this store's key: the file was changed or written under another key; delete "
                + "projections.mdb and open the store again to rebuild it from the log"
        )
    }

    /// Calls `body` with the associated data of identifier part `part`, or
    /// of the value stored under `storedKey`.
    @inline(__always)
    private func withAssociatedData<R>(
        part: Int? = nil,
        storedKey: UnsafeRawBufferPointer? = nil,
        _ body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        let extra = storedKey?.count ?? 1
        return withUnsafeTemporaryAllocation(byteCount: prefix.count + 1 + extra, alignment: 1) { buffer in
            prefix.withUnsafeBytes { buffer.copyMemory(from: $0) }
            if let storedKey {
                buffer[prefix.count] = 2
                UnsafeMutableRawBufferPointer(rebasing: buffer[(prefix.count + 1)...]).copyMemory(from: storedKey)
            } else {
                buffer[prefix.count] = 1
                buffer[prefix.count + 1] = UInt8(truncatingIfNeeded: part ?? 0)
            }
            return body(UnsafeRawBufferPointer(buffer))
        }
    }

    // MARK: Keys

    func storeKey(_ key: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if kindOnly, key.count >= 4 {
            buffer.copyMemory(from: key)
            buffer.storeBytes(
                of: cipher.pseudonym(ofKind: key.uint32BigEndian(at: 0)).bigEndian,
                toByteOffset: 0,
                as: UInt32.self
            )
            return key.count
        }
        var read = 0
        var written = 0
        func copy(_ count: Int) {
            UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + count])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: key[read..<read + count]))
            read += count
            written += count
        }
        func sealIdentifier(_ count: Int, part: Int) {
            guard count > 0 else { return }
            withAssociatedData(part: part) { associated in
                cipher.seal(
                    UnsafeRawBufferPointer(rebasing: key[read..<read + count]),
                    identifier: true,
                    associatedData: associated,
                    into: UnsafeMutableRawBufferPointer(
                        rebasing: buffer[written..<written + count + ProjectionCipher.tagSize]
                    )
                )
            }
            read += count
            written += count + ProjectionCipher.tagSize
        }
        for (index, part) in layout.parts.enumerated() where read < key.count {
            let remaining = key.count - read
            switch part {
            case .kind:
                precondition(remaining >= 4, "a projection key cut inside its kind")
                let pseudonym = cipher.pseudonym(ofKind: key.uint32BigEndian(at: read)).bigEndian
                buffer.storeBytes(of: pseudonym, toByteOffset: written, as: UInt32.self)
                read += 4
                written += 4
            case .clear(let count):
                copy(min(count, remaining))
            case .identifier:
                sealIdentifier(remaining, part: index)
            case .fixedIdentifier(let count):
                precondition(remaining >= count, "a projection key cut inside an identifier")
                sealIdentifier(count, part: index)
            case .lengthPrefixedIdentifier:
                let count = Int(key[read])
                precondition(remaining > count, "a projection key cut inside an identifier")
                copy(1)
                sealIdentifier(count, part: index)
            case .identifierAfter(let literal):
                guard UnsafeRawBufferPointer(rebasing: key[read...]).starts(with: literal) else { break }
                copy(literal.count)
                sealIdentifier(key.count - read, part: index)
            }
        }
        copy(key.count - read)
        return written
    }

    func plainKey(_ stored: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if kindOnly, stored.count >= 4 {
            buffer.copyMemory(from: stored)
            buffer.storeBytes(
                of: cipher.kind(ofPseudonym: stored.uint32BigEndian(at: 0)).bigEndian,
                toByteOffset: 0,
                as: UInt32.self
            )
            return stored.count
        }
        var read = 0
        var written = 0
        func copy(_ count: Int) {
            UnsafeMutableRawBufferPointer(rebasing: buffer[written..<written + count])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: stored[read..<read + count]))
            read += count
            written += count
        }
        func openIdentifier(_ count: Int, part: Int) throws {
            guard count > 0 else { return }
            let sealedCount = count + ProjectionCipher.tagSize
            guard stored.count - read >= sealedCount,
                withAssociatedData(
                    part: part,
                    { associated in
                        cipher.open(
                            UnsafeRawBufferPointer(rebasing: stored[read..<read + sealedCount]),
                            identifier: true,
                            associatedData: associated,
                            into: UnsafeMutableRawBufferPointer(rebasing: buffer[written...])
                        )
                    }
                ) == count
            else { throw failure("key") }
            read += sealedCount
            written += count
        }
        for (index, part) in layout.parts.enumerated() where read < stored.count {
            let remaining = stored.count - read
            switch part {
            case .kind:
                guard remaining >= 4 else { throw failure("key") }
                let kind = cipher.kind(ofPseudonym: stored.uint32BigEndian(at: read)).bigEndian
                buffer.storeBytes(of: kind, toByteOffset: written, as: UInt32.self)
                read += 4
                written += 4
            case .clear(let count):
                copy(min(count, remaining))
            case .identifier:
                guard remaining > ProjectionCipher.tagSize else { throw failure("key") }
                try openIdentifier(remaining - ProjectionCipher.tagSize, part: index)
            case .fixedIdentifier(let count):
                try openIdentifier(count, part: index)
            case .lengthPrefixedIdentifier:
                let count = Int(stored[read])
                copy(1)
                try openIdentifier(count, part: index)
            case .identifierAfter(let literal):
                guard UnsafeRawBufferPointer(rebasing: stored[read...]).starts(with: literal) else { break }
                copy(literal.count)
                let sealed = stored.count - read
                guard sealed == 0 || sealed > ProjectionCipher.tagSize else { throw failure("key") }
                try openIdentifier(max(0, sealed - ProjectionCipher.tagSize), part: index)
            }
        }
        copy(stored.count - read)
        return written
    }

    // MARK: Values

    func sealedCount(ofValueCount count: Int) -> Int {
        sealsValues ? count + ProjectionCipher.tagSize : count
    }

    func seal(
        _ value: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) {
        guard sealsValues else {
            output.copyMemory(from: value)
            return
        }
        withAssociatedData(storedKey: storedKey) { associated in
            cipher.seal(value, identifier: false, associatedData: associated, into: output)
        }
    }

    func openValue(
        _ sealed: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        guard sealsValues else {
            output.copyMemory(from: sealed)
            return sealed.count
        }
        let opened = withAssociatedData(storedKey: storedKey) { associated in
            cipher.open(sealed, identifier: false, associatedData: associated, into: output)
        }
        guard let opened else { throw failure("value") }
        return opened
    }
}

extension UnsafeRawBufferPointer {
    /// The big-endian `UInt32` at `offset`.
    fileprivate func uint32BigEndian(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

extension DatabaseOpener {
    /// The projection database `name` (``database(named:)``), sealed when
    /// the store is (``EventLog/Configuration/sealing``): its keys by
    /// `layout`, its values unless `sealsValues` is false (a database whose
    /// keys say everything and whose values are empty).
    ///
    /// ```swift
    /// let sources = try opener.projectionDatabase(named: "sources", keys: ProjectionKeyLayout(.kind, .identifier))
    /// ```
    public func projectionDatabase(
        named name: String,
        keys layout: ProjectionKeyLayout,
        sealsValues: Bool = true
    ) throws -> Database? {
        guard let database = try database(named: name) else { return nil }
        guard let sealer = userContext as? EntrySealer else { return database }
        return database.sealed(
            by: SealedProjectionDatabase(
                name: name,
                layout: layout,
                sealsValues: sealsValues,
                cipher: sealer.projections
            )
        )
    }
}
