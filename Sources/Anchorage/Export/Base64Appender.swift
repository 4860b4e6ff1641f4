/// Standard base64 with padding (RFC 4648 §4), appended to a byte buffer:
/// what `Data.base64EncodedString()` gives, without the `Data` and `String`
/// an export line would otherwise make for each entry.
enum Base64Appender {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Appends the base64 text of `source` to `bytes`.
    static func append(_ source: [UInt8], to bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + (source.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= source.count {
            let word = UInt32(source[index]) << 16 | UInt32(source[index + 1]) << 8 | UInt32(source[index + 2])
            bytes.append(alphabet[Int(word >> 18 & 63)])
            bytes.append(alphabet[Int(word >> 12 & 63)])
            bytes.append(alphabet[Int(word >> 6 & 63)])
            bytes.append(alphabet[Int(word & 63)])
            index += 3
        }
        switch source.count - index {
        case 1:
            let word = UInt32(source[index]) << 16
            bytes.append(alphabet[Int(word >> 18 & 63)])
            bytes.append(alphabet[Int(word >> 12 & 63)])
            bytes.append(contentsOf: "==".utf8)
        case 2:
            let word = UInt32(source[index]) << 16 | UInt32(source[index + 1]) << 8
            bytes.append(alphabet[Int(word >> 18 & 63)])
            bytes.append(alphabet[Int(word >> 12 & 63)])
            bytes.append(alphabet[Int(word >> 6 & 63)])
            bytes.append(UInt8(ascii: "="))
        default:
            break
        }
    }
}
