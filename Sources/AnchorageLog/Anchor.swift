import Foundation

/// A position in one store's log: where a consumer resumes.
///
/// An anchor names its log — the store, the store's incarnation and a
/// sequence number — so a store refuses anchors it did not issue, and
/// anchors issued before a restore from backup, instead of silently
/// skipping or repeating entries. It is opaque: keep it, hand it back.
///
/// Its string form is stable and URL-safe, for URLs, files and command lines:
///
/// ```swift
/// let saved = page.next.stringValue            // "AXb0…" (50 characters)
/// let anchor = try Anchor(parsing: saved)
/// let nextPage = try log.entries(after: anchor, limit: 500)
/// ```
///
/// Its `Codable` form is the same string.
public struct Anchor: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The store that issued the anchor.
    package let storeID: StoreID
    /// The incarnation of that store that issued it.
    package let incarnation: UInt64
    /// The sequence number of the last entry before the position (0 = the
    /// start of the log).
    package let seq: UInt64

    package init(storeID: StoreID, incarnation: UInt64, seq: UInt64) {
        self.storeID = storeID
        self.incarnation = incarnation
        self.seq = seq
    }

    public var description: String { stringValue }

    public var debugDescription: String {
        "Anchor(store: \(storeID), incarnation: \(String(incarnation, radix: 16)), seq: \(seq))"
    }
}

extension Anchor {
    static let formatVersion: UInt8 = 1
    static let bodySize = 33
    static let encodedSize = 37
    static let stringLength = 50

    /// The stable, URL-safe string form (base64url, 50 characters).
    public var stringValue: String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.encodedSize)
        bytes.append(Self.formatVersion)
        bytes += storeID.uuid.bytes
        withUnsafeBytes(of: incarnation.bigEndian) { bytes += $0 }
        withUnsafeBytes(of: seq.bigEndian) { bytes += $0 }
        bytes += Self.checksum(bytes)
        return Base64URL.encode(bytes)
    }

    /// Parses the string form.
    ///
    /// - Throws: ``LogError`` with code ``LogError/Code/malformedAnchor`` when
    ///   `string` is not an anchor this library wrote (wrong length,
    ///   characters, version or checksum). Whether the anchor belongs to a
    ///   given log is checked when it is used.
    public init(parsing string: String) throws(LogError) {
        let shown = string.count > 60 ? String(string.prefix(60)) + "…" : string
        guard string.utf8.count == Self.stringLength, let bytes = Base64URL.decode(string),
            bytes.count == Self.encodedSize
        else {
            throw LogError(
                .malformedAnchor,
                "'\(shown)' is not an anchor: anchors are \(Self.stringLength) characters of base64url"
            )
        }
        guard bytes[0] == Self.formatVersion else {
            throw LogError(.malformedAnchor, "'\(shown)' is not an anchor: its version \(bytes[0]) is unknown")
        }
        guard Array(bytes[Self.bodySize...]) == Self.checksum(Array(bytes[..<Self.bodySize])) else {
            throw LogError(.malformedAnchor, "'\(shown)' is not an anchor: its checksum does not match (mistyped?)")
        }
        self = bytes.withUnsafeBytes { buffer in
            Anchor(
                storeID: StoreID(UUID(loadingFrom: buffer, at: 1)),
                incarnation: UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: 17, as: UInt64.self)),
                seq: UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: 25, as: UInt64.self))
            )
        }
    }

    /// Four bytes of SHA-256 over the body, to catch mistyped anchors.
    private static func checksum(_ body: [UInt8]) -> [UInt8] {
        Array(EntryDigest.of(body).bytes.prefix(4))
    }
}

extension Anchor: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = try Anchor(parsing: container.decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5).
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64url without padding (RFC 4648 section 5), written directly:
    /// every page of a change feed and every exported line names anchors.
    static func encode(_ bytes: [UInt8]) -> String {
        let count = (bytes.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: count) { output in
            var written = 0
            var index = 0
            while index + 3 <= bytes.count {
                let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                output[written] = alphabet[Int(value >> 18 & 63)]
                output[written + 1] = alphabet[Int(value >> 12 & 63)]
                output[written + 2] = alphabet[Int(value >> 6 & 63)]
                output[written + 3] = alphabet[Int(value & 63)]
                written += 4
                index += 3
            }
            let rest = bytes.count - index
            if rest > 0 {
                let value = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                output[written] = alphabet[Int(value >> 18 & 63)]
                output[written + 1] = alphabet[Int(value >> 12 & 63)]
                written += 2
                if rest == 2 {
                    output[written] = alphabet[Int(value >> 6 & 63)]
                    written += 1
                }
            }
            return written
        }
    }

    /// `nil` unless `string` is well-formed base64url.
    static func decode(_ string: String) -> [UInt8]? {
        var standard = ""
        standard.reserveCapacity(string.utf8.count + 3)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9": standard.unicodeScalars.append(scalar)
            case "-": standard.append("+")
            case "_": standard.append("/")
            default: return nil
            }
        }
        while standard.utf8.count % 4 != 0 { standard.append("=") }
        guard let bytes = Data(base64Encoded: standard).map({ Array($0) }) else { return nil }
        // Only the canonical spelling: unused low bits of the last character
        // must be zero, so that every character of an anchor matters.
        return encode(bytes) == string ? bytes : nil
    }
}
