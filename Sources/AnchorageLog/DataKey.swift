public import Crypto
public import Foundation

/// The name of a person's data key: 16 random bytes, shared by every store
/// of that person on every node that holds a copy.
///
/// A store sealed under a key records its key id (never the key), and peers
/// compare key ids before they replicate.
///
/// ```swift
/// let id = KeyID()
/// print(id)  // 5d1c…, 32 hex digits
/// ```
public struct KeyID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// The identifier as a UUID.
    public let uuid: UUID

    /// Wraps an existing identifier.
    public init(_ uuid: UUID) {
        self.uuid = uuid
    }

    /// A new random identifier.
    public init() {
        self.uuid = UUID()
    }

    /// Parses 32 hexadecimal digits (the ``description``) or the canonical
    /// UUID form; `nil` for anything else.
    public init?(_ string: String) {
        if let uuid = UUID(uuidString: string) {
            self.uuid = uuid
            return
        }
        let digits = Array(string.utf8)
        guard digits.count == 32 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 {
            guard let high = Self.nibble(digits[2 * index]), let low = Self.nibble(digits[2 * index + 1]) else {
                return nil
            }
            bytes[index] = high << 4 | low
        }
        self.uuid = bytes.withUnsafeBytes { UUID(loadingFrom: $0, at: 0) }
    }

    /// Lowercase hex, 32 digits.
    public var description: String {
        uuid.bytes.map { byte in String(byte, radix: 16).leftPadded(to: 2) }.joined()
    }

    public static func < (lhs: KeyID, rhs: KeyID) -> Bool {
        lhs.uuid.bytes.lexicographicallyPrecedes(rhs.uuid.bytes)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let id = KeyID(try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a key id (32 hex digits)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// A person's data key, unwrapped: 32 secret bytes, named by a ``KeyID``,
/// at one version.
///
/// Stores seal their entries and projections under keys derived from it
/// (HKDF-SHA256; docs/log-format.md gives the derivation). It is never
/// written into a store: a key provider keeps it wrapped, and a store open
/// holds it unwrapped only while it is open. Its bytes live in
/// swift-crypto's `SymmetricKey`, which overwrites them with zeros when the
/// last copy is released.
///
/// ```swift
/// let key = DataKey.generate()
/// var configuration = EventLog.Configuration()
/// configuration.sealing = .sealed([key])
/// ```
public struct DataKey: Sendable {
    /// The key's name.
    public let id: KeyID
    /// The key's version: a rotation makes a new one, and entries name the
    /// version that sealed them.
    public let version: UInt16
    /// The 32 secret bytes.
    public let material: SymmetricKey

    /// The size of a data key in bytes.
    public static let size = 32

    /// A data key of the given bytes.
    ///
    /// - Throws: ``LogError`` `invalidArgument` unless `material` has 32
    ///   bytes or `version` is 0.
    public init(id: KeyID, version: UInt16, material: SymmetricKey) throws(LogError) {
        guard material.bitCount == Self.size * 8 else {
            throw LogError(.invalidArgument, "a data key has 32 bytes; this one has \(material.bitCount / 8)")
        }
        guard version > 0 else {
            throw LogError(.invalidArgument, "data key versions start at 1")
        }
        self.id = id
        self.version = version
        self.material = material
    }

    /// A new random data key (from the system's random source).
    ///
    /// ```swift
    /// let key = DataKey.generate(id: KeyID(), version: 1)
    /// ```
    public static func generate(id: KeyID = KeyID(), version: UInt16 = 1) -> DataKey {
        // The size and version are valid by construction.
        try! DataKey(id: id, version: max(version, 1), material: SymmetricKey(size: .bits256))
    }

    /// What a subkey is for: its HKDF `info`.
    enum Purpose: String {
        /// Seals log entries.
        case log = "anchorage/1/log"
        /// Seals projection values.
        case projections = "anchorage/1/projections"
        /// Makes pseudonyms of identifiers in projection keys.
        case names = "anchorage/1/names"
    }

    /// The subkey for `purpose`: HKDF-SHA256 of the data key, with the key
    /// id as salt and the purpose as info, 32 bytes.
    func subkey(_ purpose: Purpose) -> SymmetricKey {
        id.uuid.withUnsafeBytesOfUUID { salt in
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: material,
                salt: salt,
                info: Array(purpose.rawValue.utf8),
                outputByteCount: 32
            )
        }
    }

    /// 16 bytes a store records for each version it was sealed under, so
    /// that opening it with another key fails at once: the first 16 bytes of
    /// HMAC-SHA256 under the log subkey of "anchorage key check".
    var check: [UInt8] {
        Self.check(logKey: subkey(.log))
    }

    /// The key check of a log subkey.
    static func check(logKey: SymmetricKey) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array("anchorage key check".utf8), using: logKey).prefix(16))
    }
}

extension UUID {
    /// Calls `body` with the 16 bytes, without copying them to the heap.
    func withUnsafeBytesOfUUID<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: uuid) { try body($0) }
    }
}
