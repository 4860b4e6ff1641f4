import Foundation

extension UUID {
    /// Parses a uuid's canonical text: 8-4-4-4-12 hexadecimal digits, either
    /// case, as `uuidString` writes them. Any other spelling is left to
    /// Foundation's `UUID(uuidString:)`, so exactly what it accepts is
    /// accepted.
    ///
    /// Foundation parses with `sscanf` (about 0.3 µs a uuid on Linux); a
    /// save of ten samples parses ten.
    ///
    /// ```swift
    /// let id = UUID(text: "2D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B13")
    /// ```
    package init?(text: String) {
        var text = text
        let parsed = text.withUTF8 { Self.parseCanonical($0) }
        guard let parsed else {
            guard let fallback = UUID(uuidString: text) else { return nil }
            self = fallback
            return
        }
        self = parsed
    }

    /// The 16 bytes of canonical text, or `nil` for any other text.
    private static func parseCanonical(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &bytes) { output -> Bool in
            var position = 0
            for index in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = hexValue(text[position]), let low = hexValue(text[position + 1]) else { return false }
                output[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return ok ? UUID(uuid: bytes) : nil
    }

    @inline(__always)
    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character &- UInt8(ascii: "a") &+ 10
        default: nil
        }
    }

    private static let upperHex = Array("0123456789ABCDEF".utf8)
    private static let lowerHex = Array("0123456789abcdef".utf8)

    /// Appends the canonical text (uppercase, as `uuidString` writes it;
    /// lowercase, as a store id prints, with `lowercase`) to `bytes`,
    /// without Foundation's `snprintf`.
    package func appendText(to bytes: inout [UInt8], lowercase: Bool = false) {
        let digits = lowercase ? Self.lowerHex : Self.upperHex
        withUnsafeBytes(of: uuid) { source in
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(digits[Int(source[index] >> 4)])
                bytes.append(digits[Int(source[index] & 15)])
            }
        }
    }

    /// The canonical text: what `uuidString` gives, made without `snprintf`.
    package var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
