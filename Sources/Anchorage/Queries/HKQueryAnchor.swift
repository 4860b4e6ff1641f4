import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// No limit: every matching object (SQ-2).
public let HKObjectQueryNoLimit = 0
/// The integer anchor of an iOS 8 anchored query that starts from the
/// beginning (AQ-2).
public let HKAnchoredObjectQueryNoAnchor: Int32 = 0

/// A position in a store's log, returned by anchored queries (AQ-11).
///
/// Anchors are opaque and persistable: keep ``stringValue`` (or encode the
/// anchor with `Codable`) and pass it back after a restart. An anchor names
/// its store: one from another store, or from before the store was restored
/// from a backup, is rejected with `errorInvalidArgument` instead of
/// silently skipping or repeating data.
///
/// ```swift
/// UserDefaults.standard.set(newAnchor.stringValue, forKey: "steps-anchor")
/// let anchor = try HKQueryAnchor(string: saved)
/// ```
public final class HKQueryAnchor: NSObject, NSSecureCoding, NSCopying, Codable, @unchecked Sendable {
    // @unchecked: immutable; NSObject is not Sendable on Linux.

    /// The log anchor; `nil` for an integer anchor from ``init(fromValue:)``.
    let logAnchor: Anchor?
    /// The position for integer anchors.
    let value: UInt64
    /// A fleet copy's anchor also says what the consumer has seen as a
    /// version vector: a resume point valid on every copy of the store
    /// (docs/fleet.md, "Anchors that survive a failover").
    let vector: [StoreID: UInt64]?

    init(_ anchor: Anchor, vector: [StoreID: UInt64]? = nil) {
        self.logAnchor = anchor
        self.value = anchor.seq
        self.vector = vector
        super.init()
    }

    /// Wraps an iOS 8 integer anchor (AQ-4); it is valid in any store.
    public init(fromValue value: Int) {
        self.logAnchor = nil
        self.value = UInt64(max(0, value))
        self.vector = nil
        super.init()
    }

    /// Parses ``stringValue``.
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument` for text that is not an anchor.
    public convenience init(string: String) throws(HKError) {
        if let value = Int(string), value >= 0 {
            self.init(fromValue: value)
            return
        }
        let parts = string.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let vector: [StoreID: UInt64]?
        if parts.count == 2 {
            guard let decoded = Self.decodeVector(parts[1]) else {
                throw HKError(
                    .errorInvalidArgument,
                    rule: "AQ-11",
                    "'\(string.prefix(60))…' is not an anchor: the part after the dot is no version vector"
                )
            }
            vector = decoded
        } else {
            vector = nil
        }
        do {
            self.init(try Anchor(parsing: String(parts[0])), vector: vector)
        } catch {
            // The log's message names the text already.
            throw HKError(.errorInvalidArgument, rule: "AQ-11", error.message)
        }
    }

    /// The stable text form: 50 URL-safe characters, or the integer of an
    /// integer anchor; a fleet copy's anchor adds `.` and its version
    /// vector (base64url, 24 bytes an origin).
    public var stringValue: String {
        guard let logAnchor else { return String(value) }
        return logAnchor.stringValue + (vector.map { "." + Self.encodeVector($0) } ?? "")
    }

    /// The most origins a vector in an anchor may name.
    static let maximumOrigins = 4_096

    static func encodeVector(_ vector: [StoreID: UInt64]) -> String {
        var bytes: [UInt8] = []
        for (origin, counter) in vector.sorted(by: { $0.key < $1.key }) {
            withUnsafeBytes(of: origin.uuid.uuid) { bytes += $0 }
            withUnsafeBytes(of: counter.bigEndian) { bytes += $0 }
        }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodeVector(_ text: Substring) -> [StoreID: UInt64]? {
        guard text.utf8.count <= (maximumOrigins * 24 * 4 + 2) / 3 + 4,
            text.utf8.allSatisfy({
                $0 == 45 || $0 == 95 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0)
            })
        else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), data.count % 24 == 0 else { return nil }
        let bytes = [UInt8](data)
        var vector: [StoreID: UInt64] = [:]
        for start in stride(from: 0, to: bytes.count, by: 24) {
            let uuid = UUID(
                uuid: (
                    bytes[start], bytes[start + 1], bytes[start + 2], bytes[start + 3], bytes[start + 4],
                    bytes[start + 5], bytes[start + 6], bytes[start + 7], bytes[start + 8], bytes[start + 9],
                    bytes[start + 10], bytes[start + 11], bytes[start + 12], bytes[start + 13], bytes[start + 14],
                    bytes[start + 15]
                )
            )
            var counter: UInt64 = 0
            for byte in bytes[(start + 16)..<(start + 24)] { counter = counter << 8 | UInt64(byte) }
            guard vector.updateValue(counter, forKey: StoreID(uuid)) == nil else { return nil }
        }
        return vector
    }

    /// The position as an integer, as the iOS 8 form reports it (AQ-1).
    public var integerValue: Int { Int(value) }

    public override var description: String { stringValue }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKQueryAnchor else { return false }
        return logAnchor == other.logAnchor && value == other.value && vector == other.vector
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(value)
        hasher.combine(logAnchor)
        hasher.combine(vector)
        return hasher.finalize()
    }

    // MARK: NSSecureCoding, NSCopying: apps archive anchors with NSKeyedArchiver.

    private static let codingKey = "anchor"

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(stringValue as NSString, forKey: Self.codingKey)
    }

    /// Decodes an anchor archived by ``encode(with:)``; `nil` for anything else.
    public convenience init?(coder: NSCoder) {
        guard let text = coder.decodeObject(of: NSString.self, forKey: Self.codingKey) as String?,
            let anchor = try? HKQueryAnchor(string: text)
        else { return nil }
        if let logAnchor = anchor.logAnchor {
            self.init(logAnchor, vector: anchor.vector)
        } else {
            self.init(fromValue: Int(anchor.value))
        }
    }

    /// Anchors are immutable: a copy is the anchor itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: Codable: the string form.

    public convenience init(from decoder: any Decoder) throws {
        let string = try decoder.singleValueContainer().decode(String.self)
        try self.init(string: string)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }

    /// The log position this anchor stands for in `engine`'s store.
    ///
    /// - Throws: `errorInvalidArgument` for an anchor of another store or of
    ///   an earlier incarnation of this one (AQ-11).
    func position(in engine: StoreEngine) throws(HKError) -> UInt64 {
        guard let logAnchor else { return value }
        guard logAnchor.storeID == engine.log.storeID else {
            throw HKError(
                .errorInvalidArgument,
                rule: "AQ-11",
                "the anchor belongs to another store; start over with a nil anchor"
            )
        }
        guard logAnchor.incarnation == engine.log.incarnation else {
            throw HKError(
                .errorInvalidArgument,
                rule: "AQ-11",
                "the anchor comes from before this store was restored from a backup; start over with a nil anchor"
            )
        }
        return logAnchor.seq
    }

    /// The log position this anchor stands for in `engine`'s store, whose
    /// log ends at `head`.
    ///
    /// - Throws: as ``position(in:)``, and `errorInvalidArgument` (AQ-11)
    ///   for an anchor this store issued past its head: the store lost
    ///   entries since (restored from an older copy of its files), and a
    ///   consumer keeping the anchor would skip every later change. An
    ///   integer anchor (AQ-4) past the head is not refused: it reports
    ///   nothing and is echoed back, as in HealthKit.
    /// Where a change read resumes on `engine`'s store, and the entries it
    /// must skip: the anchor's position on the store that issued it; on
    /// another copy of a fleet's store, the end of the log's prefix its
    /// vector covers, skipping every entry the vector covers after it.
    ///
    /// - Throws: `errorInvalidArgument` as ``position(in:head:)``, for an
    ///   anchor of another store that carries no vector.
    func resume(
        in engine: StoreEngine,
        head: UInt64,
        txn: borrowing ReadTransaction
    ) throws -> (start: UInt64, covered: [StoreID: UInt64]?) {
        if let logAnchor, let vector,
            logAnchor.storeID != engine.log.storeID || logAnchor.incarnation != engine.log.incarnation
        {
            return (try engine.log.coveredPrefix(by: vector, through: head, in: txn), vector)
        }
        return (try position(in: engine, head: head), vector)
    }

    func position(in engine: StoreEngine, head: UInt64) throws(HKError) -> UInt64 {
        let seq = try position(in: engine)
        guard logAnchor == nil || seq <= head else {
            throw HKError(
                .errorInvalidArgument,
                rule: "AQ-11",
                "the anchor points at entry \(seq) but this store's log ends at entry \(head) (anchorAhead): "
                    + "the store lost entries after issuing it; start over with a nil anchor"
            )
        }
        return seq
    }
}
