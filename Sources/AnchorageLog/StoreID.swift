public import Foundation

/// The identity of a store (or of one incarnation's writer): 16 random bytes.
///
/// ```swift
/// let id = StoreID()
/// print(id)  // 1f0c3d2e-…
/// ```
public struct StoreID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
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

    /// Parses the canonical UUID form; `nil` if `string` is not one.
    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }

    /// The lowercase UUID form.
    public var description: String { uuid.uuidString.lowercased() }

    /// Orders identifiers by their bytes.
    public static func < (lhs: StoreID, rhs: StoreID) -> Bool {
        lhs.uuid.bytes.lexicographicallyPrecedes(rhs.uuid.bytes)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let id = StoreID(string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a store id")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A store id keys JSON objects as its text, as version vectors are sent:
/// `{"1f0c3d2e-…": 42}`.
extension StoreID: CodingKeyRepresentable {
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public var codingKey: any CodingKey { Key(stringValue: description) }

    public init?<T: CodingKey>(codingKey: T) {
        self.init(codingKey.stringValue)
    }
}

extension UUID {
    /// The 16 bytes of the UUID, in order.
    var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }

    /// Reads a UUID from 16 bytes at `offset`.
    init(loadingFrom buffer: UnsafeRawBufferPointer, at offset: Int) {
        precondition(offset >= 0 && offset + 16 <= buffer.count, "a UUID needs 16 bytes")
        self.init(uuid: buffer.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
    }

    /// The UUID of 16 zero bytes, which a sealed entry's header holds.
    static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Whether all 16 bytes are zero.
    var isZero: Bool {
        withUnsafeBytes(of: uuid) { $0.allSatisfy { $0 == 0 } }
    }

    /// Writes the 16 bytes of the UUID at `offset`.
    func store(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        withUnsafeBytes(of: uuid) { source in
            UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + 16]).copyMemory(from: source)
        }
    }
}
