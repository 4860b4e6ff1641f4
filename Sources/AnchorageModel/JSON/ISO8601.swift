/// Dates in the JSON forms: ISO 8601 in UTC with as many fractional digits
/// as the date needs to read back exactly (`2026-11-22T10:15:00Z`,
/// `2026-11-22T10:15:00.123456789Z`).
///
/// Parsing also accepts offsets (`+01:00`) and any number of fractional digits.
package enum ISO8601 {
    /// The date as text.
    package static func format(_ date: Date) -> String {
        // Work from the reference date, as Date stores it, so whole seconds
        // and fraction split exactly.
        let seconds = date.timeIntervalSinceReferenceDate
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole
        var text = civil(Int64(whole) + referenceOffset)
        if fraction > 0 {
            // The fewest digits that read back to the same Date.
            for digits in [3, 6, 9, 12, 15, 17, 20] {
                let candidate = fractionText(fraction, digits: digits)
                if let parsed = parse(text + candidate + "Z"), parsed == date {
                    return text + candidate + "Z"
                }
            }
            text += fractionText(fraction, digits: 20)
        }
        return text + "Z"
    }

    /// Seconds from 1970 to 2001, the reference date.
    private static let referenceOffset: Int64 = 978_307_200

    /// `.ddd` with `digits` digits, trailing zeros removed.
    private static func fractionText(_ fraction: Double, digits: Int) -> String {
        var text = String(format: "%.\(digits)f", fraction)
        if text.hasPrefix("1") { text = "0." + String(repeating: "9", count: digits) }
        text.removeFirst()  // "0"
        while text.hasSuffix("0") { text.removeLast() }
        return text == "." ? "" : text
    }

    /// Appends the date as ``format(_:)`` writes it, without making a
    /// `String` for the common case (whole seconds, years 0…9999): a wide
    /// statistics answer writes 200,000 dates.
    package static func append(_ date: Date, to bytes: inout [UInt8]) {
        let seconds = date.timeIntervalSinceReferenceDate
        let whole = seconds.rounded(.down)
        guard seconds == whole, abs(whole) < 1e15 else {
            bytes.append(contentsOf: format(date).utf8)
            return
        }
        let fields = civilFields(Int64(whole) + referenceOffset)
        guard (0...9_999).contains(fields.year) else {
            bytes.append(contentsOf: format(date).utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            write(fields, into: buffer)
            buffer[19] = UInt8(ascii: "Z")
            bytes.append(contentsOf: buffer)
        }
    }

    /// A time in whole seconds since 1970 (UTC), split into its fields.
    private struct CivilFields {
        let year, month, day, hour, minute, second: Int64
    }

    private static func civilFields(_ seconds: Int64) -> CivilFields {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilFromDays(days)
        return CivilFields(
            year: year,
            month: month,
            day: day,
            hour: secondOfDay / 3600,
            minute: secondOfDay % 3600 / 60,
            second: secondOfDay % 60
        )
    }

    /// Writes "YYYY-MM-DDTHH:MM:SS" (19 bytes) for a year in 0…9999.
    private static func write(_ fields: CivilFields, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        func digits(_ value: Int64, width: Int, at start: Int) {
            var value = value
            for position in stride(from: start + width - 1, through: start, by: -1) {
                buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        digits(fields.year, width: 4, at: 0)
        buffer[4] = UInt8(ascii: "-")
        digits(fields.month, width: 2, at: 5)
        buffer[7] = UInt8(ascii: "-")
        digits(fields.day, width: 2, at: 8)
        buffer[10] = UInt8(ascii: "T")
        digits(fields.hour, width: 2, at: 11)
        buffer[13] = UInt8(ascii: ":")
        digits(fields.minute, width: 2, at: 14)
        buffer[16] = UInt8(ascii: ":")
        digits(fields.second, width: 2, at: 17)
    }

    /// "YYYY-MM-DDTHH:MM:SS" for whole seconds since 1970 (UTC).
    private static func civil(_ seconds: Int64) -> String {
        let fields = civilFields(seconds)
        guard (0...9_999).contains(fields.year) else {
            return String(
                format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld",
                fields.year,
                fields.month,
                fields.day,
                fields.hour,
                fields.minute,
                fields.second
            )
        }
        // By hand: String(format:) costs more than the rest of a sample's JSON.
        return String(unsafeUninitializedCapacity: 19) { buffer in
            write(fields, into: buffer)
            return 19
        }
    }

    /// Howard Hinnant's civil-from-days (proleptic Gregorian).
    private static func civilFromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    /// Days since 1970 for a civil date.
    private static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Parses "YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)"; `nil` for anything else.
    package static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 64 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
                value = value * 10 + Int64(bytes[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == 45, let month = number(5..<7), bytes[7] == 45,
            let day = number(8..<10), bytes[10] == 84 || bytes[10] == 116,
            let hour = number(11..<13), bytes[13] == 58, let minute = number(14..<16), bytes[16] == 58,
            let second = number(17..<19)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fractionDigits = ""
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fractionDigits.unicodeScalars.append(Unicode.Scalar(bytes[index]))
                index += 1
            }
            guard !fractionDigits.isEmpty, fractionDigits.count <= 20 else { return nil }
        }
        var offset: Int64 = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case 90, 122:  // Z
            index += 1
        case 43, 45:  // + -
            guard index + 6 == bytes.count, bytes[index + 3] == 58, let oh = number(index + 1..<index + 3),
                let om = number(index + 4..<index + 6), oh < 24, om < 60
            else { return nil }
            offset = (oh * 3600 + om * 60) * (bytes[index] == 45 ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let wholeSeconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        let fraction = fractionDigits.isEmpty ? 0 : Double("0." + fractionDigits) ?? 0
        return Date(timeIntervalSinceReferenceDate: Double(wholeSeconds - referenceOffset) + fraction)
    }

    private static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
