import Crypto
import Foundation
import LMDB
import Synchronization

/// A sealed store's projection keys: what seals the values of its indices
/// and views, and what turns the identifiers in their keys into keyed
/// pseudonyms, for one version of its data key (docs/log-format.md,
/// "Sealed projections").
///
/// - Values are sealed with AES-256-GCM-SIV under the projections subkey,
///   with a zero nonce and the database's name and the stored key as
///   associated data: deterministic (a rebuild gives the same bytes), and a
///   value moved to another key or database does not open.
/// - A kind becomes an 8-round Feistel permutation of its 32 bits, keyed by
///   the names subkey: a bijection, so every key of one kind shares a
///   prefix, and no two kinds share one.
/// - An identifier (a bundle id, a sync identifier's hash) is sealed with
///   AES-256-GCM-SIV under a key derived from the names subkey, zero nonce:
///   deterministic, so a lookup finds it, and it opens back for listings.
final class ProjectionCipher: Sendable {
    /// The bytes a sealed value or identifier adds: the GCM-SIV tag.
    static let tagSize = 16

    /// The data key version the projections are sealed under.
    let version: UInt16
    private let valueKey: SIVKey
    private let identifierKey: SIVKey
    private let kindKey: SymmetricKey
    private let kinds = Mutex<(forward: [UInt32: UInt32], backward: [UInt32: UInt32])>(([:], [:]))
    /// The last kind looked up each way, as `kind << 32 | pseudonym` and
    /// `pseudonym << 32 | kind`: a scan over one type's rows asks for the
    /// same one each time, and reads it with no lock.
    private let lastForward: Atomic<UInt64>
    private let lastBackward: Atomic<UInt64>
    private static let zeroNonce = [UInt8](repeating: 0, count: SIVKey.nonceSize)

    init(key: DataKey) {
        version = key.version
        let projections = key.subkey(.projections)
        valueKey = SIVKey(projections)
        let names = key.subkey(.names)
        identifierKey = SIVKey(
            SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Array("identifiers".utf8), using: names))
        )
        kindKey = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Array("kinds".utf8), using: names))
        let check = HMAC<SHA256>.authenticationCode(
            for: Array("anchorage projections check".utf8),
            using: projections
        )
        tag = [UInt8(version >> 8), UInt8(version & 0xFF)] + Array(check.prefix(8))
        lastForward = Atomic(0)
        lastBackward = Atomic(0)
        let zero = feistel(0, inverse: false)
        lastForward.store(UInt64(zero), ordering: .relaxed)
        lastBackward.store(UInt64(zero) << 32, ordering: .relaxed)
    }

    /// What the log's `meta` records of the key the projections were
    /// sealed under: the version and 8 bytes of HMAC-SHA256 under the
    /// projections subkey of "anchorage projections check".
    let tag: [UInt8]

    // MARK: Kinds

    /// The pseudonym of `kind`.
    func pseudonym(ofKind kind: UInt32) -> UInt32 {
        let last = lastForward.load(ordering: .relaxed)
        if UInt32(last >> 32) == kind { return UInt32(truncatingIfNeeded: last) }
        let pseudonym = lookUpPseudonym(ofKind: kind)
        lastForward.store(UInt64(kind) << 32 | UInt64(pseudonym), ordering: .relaxed)
        return pseudonym
    }

    private func lookUpPseudonym(ofKind kind: UInt32) -> UInt32 {
        if let known = kinds.withLock({ $0.forward[kind] }) { return known }
        let pseudonym = feistel(kind, inverse: false)
        kinds.withLock {
            $0.forward[kind] = pseudonym
            $0.backward[pseudonym] = kind
        }
        return pseudonym
    }

    /// The kind whose pseudonym is `pseudonym`.
    func kind(ofPseudonym pseudonym: UInt32) -> UInt32 {
        let last = lastBackward.load(ordering: .relaxed)
        if UInt32(last >> 32) == pseudonym { return UInt32(truncatingIfNeeded: last) }
        let kind = lookUpKind(ofPseudonym: pseudonym)
        lastBackward.store(UInt64(pseudonym) << 32 | UInt64(kind), ordering: .relaxed)
        return kind
    }

    private func lookUpKind(ofPseudonym pseudonym: UInt32) -> UInt32 {
        if let known = kinds.withLock({ $0.backward[pseudonym] }) { return known }
        let kind = feistel(pseudonym, inverse: true)
        kinds.withLock {
            $0.forward[kind] = pseudonym
            $0.backward[pseudonym] = kind
        }
        return kind
    }

    /// The 8-round Feistel permutation on 32 bits (or its inverse); round
    /// `i`'s function is the first 2 bytes of HMAC-SHA256 under the kinds
    /// key of `i ‖ half` (big-endian).
    private func feistel(_ value: UInt32, inverse: Bool) -> UInt32 {
        var left = UInt16(value >> 16)
        var right = UInt16(value & 0xFFFF)
        if !inverse {
            for round in 0..<8 {
                (left, right) = (right, left ^ roundFunction(UInt8(round), right))
            }
        } else {
            for round in (0..<8).reversed() {
                (left, right) = (right ^ roundFunction(UInt8(round), left), left)
            }
        }
        return UInt32(left) << 16 | UInt32(right)
    }

    private func roundFunction(_ round: UInt8, _ half: UInt16) -> UInt16 {
        let code = HMAC<SHA256>.authenticationCode(for: [round, UInt8(half >> 8), UInt8(half & 0xFF)], using: kindKey)
        return code.withUnsafeBytes { UInt16($0[0]) << 8 | UInt16($0[1]) }
    }

    // MARK: Sealing

    /// Seals `plain` (deterministically) into `output`: ciphertext ‖ tag.
    func seal(
        _ plain: UnsafeRawBufferPointer,
        identifier: Bool,
        associatedData: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) {
        _ = Self.zeroNonce.withUnsafeBytes { nonce in
            (identifier ? identifierKey : valueKey).seal(
                plain,
                nonce: nonce,
                associatedData: associatedData,
                into: output
            )
        }
    }

    /// Opens what ``seal(_:identifier:associatedData:into:)`` wrote into
    /// `output`; returns the count, or `nil` when it does not open.
    func open(
        _ sealed: UnsafeRawBufferPointer,
        identifier: Bool,
        associatedData: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) -> Int? {
        Self.zeroNonce.withUnsafeBytes { nonce in
            (identifier ? identifierKey : valueKey).open(
                sealed,
                nonce: nonce,
                associatedData: associatedData,
                into: output
            )
        }
    }
}
