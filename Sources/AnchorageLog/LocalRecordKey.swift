public import Foundation
import LMDB

/// Where a node-local record sits: the millisecond it was recorded at and
/// a number that orders records of one millisecond. Keys only grow: a
/// clock that goes back records at the last key's time.
///
/// ```swift
/// let key = LocalRecordKey(milliseconds: 1_767_225_600_000, number: 7)
/// print(key.stringValue)   // "1767225600000-7", a cursor to page on
/// ```
public struct LocalRecordKey: Sendable, Hashable, Comparable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let milliseconds: UInt64
    /// The record's number, one more than the record before it.
    public let number: UInt64

    /// A key with these parts.
    public init(milliseconds: UInt64, number: UInt64) {
        self.milliseconds = milliseconds
        self.number = number
    }

    /// The first key at or after `date`: the start of a range.
    public init(atOrAfter date: Date) {
        self.init(milliseconds: Self.milliseconds(date), number: 0)
    }

    /// The time the key was recorded at.
    public var date: Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }

    /// The key's text form, `<milliseconds>-<number>`.
    public var stringValue: String { "\(milliseconds)-\(number)" }

    /// Reads a key's text form; `nil` for anything else.
    public init?(string: String) {
        let parts = string.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 20 }),
            let milliseconds = UInt64(parts[0]), let number = UInt64(parts[1])
        else { return nil }
        self.init(milliseconds: milliseconds, number: number)
    }

    /// The key's 16 stored bytes: both parts big-endian.
    var bytes: [UInt8] { milliseconds.bigEndianBytes + number.bigEndianBytes }

    /// Reads 16 stored bytes.
    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16,
            let milliseconds = UInt64(bigEndianBytes: UnsafeRawBufferPointer(rebasing: bytes[0..<8])),
            let number = UInt64(bigEndianBytes: UnsafeRawBufferPointer(rebasing: bytes[8..<16]))
        else { return nil }
        self.init(milliseconds: milliseconds, number: number)
    }

    /// `date` in whole milliseconds since 1970, 0 for earlier dates.
    static func milliseconds(_ date: Date) -> UInt64 {
        let value = (date.timeIntervalSince1970 * 1_000).rounded(.down)
        guard value > 0 else { return 0 }
        return value >= 1.8e19 ? UInt64.max / 2 : UInt64(value)
    }

    public static func < (left: Self, right: Self) -> Bool {
        (left.milliseconds, left.number) < (right.milliseconds, right.number)
    }
}

/// How long node-local records are kept: records older than `maximumAge`
/// and the oldest beyond `maximumCount` are removed as new ones arrive.
///
/// ```swift
/// let retention = LocalRecordRetention(maximumAge: .seconds(90 * 86_400), maximumCount: 1_000_000)
/// ```
public struct LocalRecordRetention: Sendable, Hashable {
    /// The age past which a record is removed; `nil` keeps any age.
    public var maximumAge: Duration?
    /// The most records kept; `nil` keeps any number.
    public var maximumCount: Int?

    /// A retention by age and/or count.
    public init(maximumAge: Duration?, maximumCount: Int?) {
        self.maximumAge = maximumAge
        self.maximumCount = maximumCount
    }
}
