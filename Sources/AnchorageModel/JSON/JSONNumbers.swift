public import AnchorageCore
public import Foundation

/// A number that is valid JSON but does not fit the field it was sent for
/// (`1e400` for a double, `99999999999999999999` or `1.5` for a whole
/// number, `-1` for one of at least 0): a value that breaks a rule, not
/// broken JSON. The message names where it is and what the field takes; it
/// never repeats the number.
///
/// ```swift
/// do { _ = try JSONNumbers.decode(SampleBatch.self, from: body) } catch let error as JSONNumberOutOfRange {
///     print(error.message)   // the number at [0].quantity.value is out of range: the field takes …
/// }
/// ```
public struct JSONNumberOutOfRange: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the number is, as ``DecodingErrorWords/path(_:)`` writes it.
    public let path: String
    /// What the field takes, in words.
    public let accepted: String

    public var message: String { "the number at \(path) is out of range: the field takes \(accepted)" }
    public var description: String { message }
}

/// `model.invalidArgument`: the API's `400 invalidArgument`.
extension JSONNumberOutOfRange: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.model, "invalidArgument") }
}

/// Decoding JSON bodies so that a number out of its field's range is told
/// apart from broken JSON.
///
/// Foundation's `JSONDecoder` reports both the same way ("the given data
/// was not valid JSON", no path). When it does, the bytes are checked
/// against JSON's grammar; if they are JSON, they are decoded again,
/// watching every number, to find the one that did not fit. Only a failing
/// body pays for it.
///
/// ```swift
/// let batch = try JSONNumbers.decode(SampleBatch.self, from: data)
/// ```
public enum JSONNumbers {
    /// `decoder.decode(type, from: data)`, but a number that is JSON and
    /// does not fit its field throws ``JSONNumberOutOfRange`` instead of
    /// `DecodingError.dataCorrupted`.
    ///
    /// - Throws: `DecodingError` for broken JSON and values of the wrong
    ///   kind, ``JSONNumberOutOfRange``, and whatever `type`'s decoder throws.
    public static func decode<T: Decodable>(
        _ type: T.Type,
        from data: Data,
        with decoder: JSONDecoder = JSONDecoder()
    ) throws -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            // Foundation's words for anything its scanner or a number's
            // conversion refused: no path.
            guard case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                data.withUnsafeBytes(JSONGrammar.matches)
            else { throw error }
            do {
                _ = try decoder.decode(NumberWatch<T>.self, from: data)
            } catch let located as JSONNumberOutOfRange {
                throw located
            } catch {
                // Refused for another reason: as the first decoding said.
            }
            throw error
        }
    }

    /// What a field of `type` takes, in words.
    static func accepted<N: BinaryFloatingPoint>(_ type: N.Type) -> String {
        "a number of at most \(N.greatestFiniteMagnitude) in magnitude, and 0 or at least "
            + "\(N.leastNonzeroMagnitude) in magnitude"
    }

    static func accepted<N: FixedWidthInteger>(_ type: N.Type) -> String {
        "a whole number from \(N.min) to \(N.max)"
    }
}

/// `T` decoded through a ``NumberWatchingDecoder``.
private struct NumberWatch<T: Decodable>: Decodable {
    init(from decoder: any Decoder) throws {
        _ = try T(from: NumberWatchingDecoder(inner: decoder))
    }
}

/// JSON's grammar (RFC 8259), checked without building anything and
/// without recursion: whether `bytes` are one JSON value, whitespace
/// around it. Strings are checked for escapes and control characters, not
/// for UTF-8 (Foundation's scanner refuses bad UTF-8 on its own).
enum JSONGrammar {
    static func matches(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var reader = Reader(bytes: bytes)
        return reader.document()
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        /// The open containers, innermost last: `{` or `[`.
        var open: [UInt8] = []

        private enum Next { case value, valueOrClose, key, keyOrClose, separatorOrClose }

        mutating func document() -> Bool {
            var next = Next.value
            while true {
                skipSpace()
                switch next {
                case .value, .valueOrClose:
                    guard index < bytes.count else { return false }
                    let byte = bytes[index]
                    if next == .valueOrClose && byte == UInt8(ascii: "]") {
                        index += 1
                        open.removeLast()
                        next = .separatorOrClose
                    } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                        index += 1
                        open.append(byte)
                        next = byte == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
                    } else {
                        guard scalar() else { return false }
                        next = .separatorOrClose
                    }
                case .key, .keyOrClose:
                    guard index < bytes.count else { return false }
                    if next == .keyOrClose && bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        open.removeLast()
                        next = .separatorOrClose
                        continue
                    }
                    guard string() else { return false }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return false }
                    next = .value
                case .separatorOrClose:
                    guard let container = open.last else { return index == bytes.count }
                    if take(UInt8(ascii: ",")) {
                        next = container == UInt8(ascii: "{") ? .key : .value
                    } else if take(container == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        open.removeLast()
                    } else {
                        return false
                    }
                }
            }
        }

        /// A string, number, `true`, `false` or `null`.
        private mutating func scalar() -> Bool {
            switch bytes[index] {
            case UInt8(ascii: "\""): string()
            case UInt8(ascii: "t"): word("true")
            case UInt8(ascii: "f"): word("false")
            case UInt8(ascii: "n"): word("null")
            default: number()
            }
        }

        private mutating func string() -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return true
                case 0x00..<0x20: return false
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return false }
                    let escaped = bytes[index]
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        guard index + 4 <= bytes.count, (index..<index + 4).allSatisfy({ Self.isHex(bytes[$0]) })
                        else { return false }
                        index += 4
                    } else if !Self.isEscapable(escaped) {
                        return false
                    }
                default: continue
                }
            }
            return false
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        private mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                // No more digits: a leading zero stands alone.
            } else if digits() == 0 {
                return false
            }
            if take(UInt8(ascii: ".")), digits() == 0 { return false }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                if digits() == 0 { return false }
            }
            return true
        }

        private mutating func word(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count,
                word.withUTF8Buffer({ word in (0..<count).allSatisfy { bytes[index + $0] == word[$0] } })
            else { return false }
            index += count
            return true
        }

        private mutating func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        /// What may follow a backslash, `u` aside.
        private static func isEscapable(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                true
            default: false
            }
        }

        private static func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
    }
}

// MARK: Watching every number

/// A decoder that passes everything to `inner` and turns a number's
/// failure to convert (Foundation's own error, which carries no path) into
/// ``JSONNumberOutOfRange`` at the number's path. Nested values are decoded
/// through it too; dates, data, URLs and decimals, which `JSONDecoder`
/// decodes its own way, are left to `inner` whole.
private struct NumberWatchingDecoder: Decoder {
    let inner: any Decoder

    var codingPath: [any CodingKey] { inner.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { inner.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(WatchedKeyedContainer(inner: try inner.container(keyedBy: type)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        WatchedUnkeyedContainer(inner: try inner.unkeyedContainer())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        WatchedSingleValueContainer(inner: try inner.singleValueContainer(), decoder: self)
    }

    /// Whether `JSONDecoder` decodes `type` its own way (by its strategies).
    static func decodesItself(_ type: Any.Type) -> Bool {
        type == Date.self || type == Data.self || type == URL.self || type == Decimal.self
    }

    /// `decode()`'s number, its failure to convert reported at `path`.
    static func floating<N: BinaryFloatingPoint>(
        _ type: N.Type,
        at path: @autoclosure () -> [any CodingKey],
        _ decode: () throws -> N
    ) throws -> N {
        do {
            return try decode()
        } catch let error as DecodingError {
            throw error
        } catch {
            throw JSONNumberOutOfRange(path: DecodingErrorWords.path(path()), accepted: JSONNumbers.accepted(type))
        }
    }

    static func integer<N: FixedWidthInteger>(
        _ type: N.Type,
        at path: @autoclosure () -> [any CodingKey],
        _ decode: () throws -> N
    ) throws -> N {
        do {
            return try decode()
        } catch let error as DecodingError {
            throw error
        } catch {
            throw JSONNumberOutOfRange(path: DecodingErrorWords.path(path()), accepted: JSONNumbers.accepted(type))
        }
    }
}

/// An array's position in a path (`[3]`).
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct WatchedKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let inner: KeyedDecodingContainer<Key>
    typealias Watch = NumberWatchingDecoder

    var codingPath: [any CodingKey] { inner.codingPath }
    var allKeys: [Key] { inner.allKeys }
    func contains(_ key: Key) -> Bool { inner.contains(key) }
    func decodeNil(forKey key: Key) throws -> Bool { try inner.decodeNil(forKey: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try inner.decode(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try inner.decode(type, forKey: key) }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try Watch.floating(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try Watch.floating(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try Watch.integer(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try Watch.integer(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try Watch.integer(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try Watch.integer(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try Watch.integer(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try Watch.integer(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try Watch.integer(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try Watch.integer(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try Watch.integer(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try Watch.integer(type, at: path(key)) { try inner.decode(type, forKey: key) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A missing key keeps JSONDecoder's own error.
        guard !Watch.decodesItself(type), inner.contains(key) else { return try inner.decode(type, forKey: key) }
        return try T(from: Watch(inner: try inner.superDecoder(forKey: key)))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(
            WatchedKeyedContainer<NestedKey>(inner: try inner.nestedContainer(keyedBy: type, forKey: key))
        )
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        WatchedUnkeyedContainer(inner: try inner.nestedUnkeyedContainer(forKey: key))
    }

    func superDecoder() throws -> any Decoder { Watch(inner: try inner.superDecoder()) }
    func superDecoder(forKey key: Key) throws -> any Decoder { Watch(inner: try inner.superDecoder(forKey: key)) }
}

private struct WatchedUnkeyedContainer: UnkeyedDecodingContainer {
    var inner: any UnkeyedDecodingContainer
    typealias Watch = NumberWatchingDecoder

    var codingPath: [any CodingKey] { inner.codingPath }
    var count: Int? { inner.count }
    var isAtEnd: Bool { inner.isAtEnd }
    var currentIndex: Int { inner.currentIndex }

    private var path: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

    mutating func decodeNil() throws -> Bool { try inner.decodeNil() }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try inner.decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try inner.decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double {
        try Watch.floating(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        try Watch.floating(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        try Watch.integer(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        try Watch.integer(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        try Watch.integer(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        try Watch.integer(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        try Watch.integer(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        try Watch.integer(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        try Watch.integer(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        try Watch.integer(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        try Watch.integer(type, at: path) { try inner.decode(type) }
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        try Watch.integer(type, at: path) { try inner.decode(type) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // At the end, JSONDecoder's own error.
        guard !Watch.decodesItself(type), !inner.isAtEnd else { return try inner.decode(type) }
        return try T(from: Watch(inner: try inner.superDecoder()))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(WatchedKeyedContainer<NestedKey>(inner: try inner.nestedContainer(keyedBy: type)))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        WatchedUnkeyedContainer(inner: try inner.nestedUnkeyedContainer())
    }

    mutating func superDecoder() throws -> any Decoder { Watch(inner: try inner.superDecoder()) }
}

private struct WatchedSingleValueContainer: SingleValueDecodingContainer {
    let inner: any SingleValueDecodingContainer
    /// The decoder this container reads through, for nested values.
    let decoder: NumberWatchingDecoder
    typealias Watch = NumberWatchingDecoder

    var codingPath: [any CodingKey] { inner.codingPath }

    func decodeNil() -> Bool { inner.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try inner.decode(type) }
    func decode(_ type: String.Type) throws -> String { try inner.decode(type) }
    func decode(_ type: Double.Type) throws -> Double {
        try Watch.floating(type, at: codingPath) { try inner.decode(type) }
    }
    func decode(_ type: Float.Type) throws -> Float {
        try Watch.floating(type, at: codingPath) { try inner.decode(type) }
    }
    func decode(_ type: Int.Type) throws -> Int { try Watch.integer(type, at: codingPath) { try inner.decode(type) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try Watch.integer(type, at: codingPath) { try inner.decode(type) } }
    func decode(_ type: Int16.Type) throws -> Int16 {
        try Watch.integer(type, at: codingPath) { try inner.decode(type) }
    }
    func decode(_ type: Int32.Type) throws -> Int32 {
        try Watch.integer(type, at: codingPath) { try inner.decode(type) }
    }
    func decode(_ type: Int64.Type) throws -> Int64 {
        try Watch.integer(type, at: codingPath) { try inner.decode(type) }
    }
    func decode(_ type: UInt.Type) throws -> UInt { try Watch.integer(type, at: codingPath) { try inner.decode(type) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try Watch.integer(type, at: codingPath) { try inner.decode(type) }
    }
    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try Watch.integer(type, at: codingPath) { try inner.decode(type) }
    }
    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try Watch.integer(type, at: codingPath) { try inner.decode(type) }
    }
    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try Watch.integer(type, at: codingPath) { try inner.decode(type) }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !Watch.decodesItself(type) else { return try inner.decode(type) }
        return try T(from: decoder)
    }
}
