import Foundation

/// Dates as the Health app writes them: `2017-05-24 13:56:15 +0200`, and
/// in the oldest exports (iOS 8 and 9) compact: `20140104084300-0800`.
enum ExportDate {
    /// Parses one date; `nil` for anything not in that form. Hand-written,
    /// because `DateFormatter` costs microseconds per call and an export
    /// holds millions of dates.
    static func parse(_ text: String) -> Date? {
        parse(ArraySlice(text.utf8))
    }

    /// Parses one date from its bytes; `nil` for anything not in either form.
    static func parse(_ slice: ArraySlice<UInt8>) -> Date? {
        slice.withUnsafeBufferPointer { bytes -> Date? in
            switch bytes.count {
            case 25:
                // 2017-05-24 13:56:15 +0200
                guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A, bytes[16] == 0x3A,
                    bytes[19] == 0x20
                else { return nil }
                return instant(bytes, (0, 5, 8, 11, 14, 17), sign: 20)
            case 19:
                // 20170524135615+0200, the oldest exports' form
                return instant(bytes, (0, 4, 6, 8, 10, 12), sign: 14)
            default:
                return nil
            }
        }
    }

    /// The offset from UTC in seconds that a date in either form carries
    /// (`+0200` → 7200); `nil` for anything else.
    static func offset(_ slice: ArraySlice<UInt8>) -> Int? {
        guard slice.count == 25 || slice.count == 19 else { return nil }
        let tail = Array(slice.suffix(5))
        guard tail[0] == 0x2B || tail[0] == 0x2D else { return nil }
        var digits: [Int] = []
        for byte in tail[1...] {
            guard (0x30...0x39).contains(byte) else { return nil }
            digits.append(Int(byte) - 0x30)
        }
        let seconds = (digits[0] * 10 + digits[1]) * 3_600 + (digits[2] * 10 + digits[3]) * 60
        return tail[0] == 0x2D ? -seconds : seconds
    }

    /// The instant of a date whose year (4 digits), month, day, hour, minute
    /// and second (2 digits each) start at the offsets of `at`, and whose
    /// offset is `±hhmm` at `sign`; `nil` when a field is not digits or out
    /// of range. (A tuple, not an array: no allocation per date.)
    private static func instant(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ at: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int),
        sign: Int
    ) -> Date? {
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<from + count {
                let digit = Int(bytes[index]) - 0x30
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard bytes[sign] == 0x2B || bytes[sign] == 0x2D,
            let year = number(at.year, 4), let month = number(at.month, 2), let day = number(at.day, 2),
            let hour = number(at.hour, 2), let minute = number(at.minute, 2), let second = number(at.second, 2),
            let offsetHours = number(sign + 1, 2), let offsetMinutes = number(sign + 3, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
            offsetHours < 24, offsetMinutes < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let offset = (offsetHours * 3_600 + offsetMinutes * 60) * (bytes[sign] == 0x2D ? -1 : 1)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second - offset))
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A `yyyy-MM-dd` day (a date of birth, an activity summary's day), or
    /// the oldest exports' `yyyyMMdd`, as Gregorian components.
    static func day(_ text: String) -> DateComponents? {
        var parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 1, text.utf8.count == 8, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            let digits = Substring(text)
            parts = [
                digits.prefix(4), digits.dropFirst(4).prefix(2), digits.dropFirst(6),
            ]
        }
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return DateComponents(calendar: Calendar(identifier: .gregorian), year: year, month: month, day: day)
    }
}
