/// Numbers as the export writes them (`72`, `140.5`, `-0.25`, `1e-05`),
/// parsed from bytes.
enum ExportNumber {
    /// Powers of ten that a `Double` holds exactly.
    private static let powers: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The number in `bytes`, or `nil` when they are not one. Plain decimals
    /// of up to 15 digits take an exact fast path (a whole mantissa divided
    /// by an exact power of ten rounds once, correctly); anything else goes
    /// through the standard library's parser.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Double? {
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        var index = bytes.startIndex
        var negative = false
        if bytes[index] == 0x2D || bytes[index] == 0x2B {
            negative = bytes[index] == 0x2D
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var decimals = 0
        var sawPoint = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte >= 0x30 && byte <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
                digits += 1
                if sawPoint { decimals += 1 }
            } else if byte == 0x2E && !sawPoint {
                sawPoint = true
            } else {
                return slow(bytes)
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        guard digits <= 15, decimals <= 22 else { return slow(bytes) }
        let value = Double(mantissa) / powers[decimals]
        return negative ? -value : value
    }

    private static func slow(_ bytes: ArraySlice<UInt8>) -> Double? {
        guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}
