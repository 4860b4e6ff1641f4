import AnchorageLog
import AnchorageModel
import Foundation

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

    init(_ anchor: Anchor) {
        self.logAnchor = anchor
        self.value = anchor.seq
        super.init()
    }

    /// Wraps an iOS 8 integer anchor (AQ-4); it is valid in any store.
    public init(fromValue value: Int) {
        self.logAnchor = nil
        self.value = UInt64(max(0, value))
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
        do {
            self.init(try Anchor(parsing: string))
        } catch {
            // The log's message names the text already.
            throw HKError(.errorInvalidArgument, rule: "AQ-11", error.message)
        }
    }

    /// The stable text form: 50 URL-safe characters, or the integer of an
    /// integer anchor.
    public var stringValue: String { logAnchor?.stringValue ?? String(value) }

    /// The position as an integer, as the iOS 8 form reports it (AQ-1).
    public var integerValue: Int { Int(value) }

    public override var description: String { stringValue }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKQueryAnchor else { return false }
        return logAnchor == other.logAnchor && value == other.value
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(value)
        hasher.combine(logAnchor)
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
        guard let text = coder.decodeObject(of: NSString.self, forKey: Self.codingKey) as String? else { return nil }
        if let value = Int(text), value >= 0 {
            self.init(fromValue: value)
        } else if let anchor = try? Anchor(parsing: text) {
            self.init(anchor)
        } else {
            return nil
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
