import Anchorage
import Foundation

/// The points of a route file the Health app writes (`workout-routes/*.gpx`,
/// GPX 1.1): each `trkpt` with `lat`/`lon`, `ele`, `time` and the
/// `extensions` `speed`, `course`, `hAcc`, `vAcc`.
///
/// A small scanner over the bytes rather than a general XML parser: the
/// files are machine-written and regular, there are a million points in a
/// year of runs, and nothing else in them is read. It never reads past the
/// bytes it is given; anything it cannot read is `nil`, never a crash.
///
/// ```swift
/// let points = GPXTrack.locations(bytes)    // nil when the file is not such a route
/// ```
enum GPXTrack {
    /// The most points read from one file: a route's limit.
    static let maximumPoints = HKWorkoutRoute.maximumLocations

    /// The locations in the file, in file order; `nil` when a point lacks
    /// a readable position or time, or there are more than
    /// ``maximumPoints``.
    static func locations(_ bytes: [UInt8]) -> [HKWorkoutRoute.Location]? {
        bytes.withUnsafeBufferPointer { buffer -> [HKWorkoutRoute.Location]? in
            var scanner = Scanner(bytes: buffer)
            var locations: [HKWorkoutRoute.Location] = []
            while let start = scanner.find(Array("<trkpt".utf8)) {
                guard locations.count < maximumPoints else { return nil }
                guard let location = scanner.point(at: start) else { return nil }
                locations.append(location)
            }
            return locations
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        /// The index just past the next occurrence of `needle` at or after
        /// the offset, which moves there; `nil` (offset at the end) if none.
        mutating func find(_ needle: [UInt8]) -> Int? {
            guard let first = needle.first, needle.count <= bytes.count else {
                offset = bytes.count
                return nil
            }
            var index = offset
            while index + needle.count <= bytes.count {
                if bytes[index] == first {
                    var matches = true
                    for (position, byte) in needle.enumerated() where bytes[index + position] != byte {
                        matches = false
                        break
                    }
                    if matches {
                        offset = index + needle.count
                        return offset
                    }
                }
                index += 1
            }
            offset = bytes.count
            return nil
        }

        /// The point whose `<trkpt` ends at `start`. Read as bytes: no
        /// string is made for a name, and numbers and whole-second UTC
        /// times (what the Health app writes) are parsed in place.
        mutating func point(at start: Int) -> HKWorkoutRoute.Location? {
            // Attributes up to the tag's end.
            guard let tagEnd = index(of: UInt8(ascii: ">"), from: start) else { return nil }
            let selfClosing = tagEnd > start && bytes[tagEnd - 1] == UInt8(ascii: "/")
            guard let latitude = attribute("lat", in: start..<tagEnd).flatMap(Self.number),
                let longitude = attribute("lon", in: start..<tagEnd).flatMap(Self.number)
            else { return nil }
            var elevation: Double?
            var speed: Double?
            var course: Double?
            var horizontal: Double?
            var vertical: Double?
            var time: Date?
            var end = tagEnd + 1
            if !selfClosing {
                offset = tagEnd + 1
                guard let close = find(Self.closeTag) else { return nil }
                end = close
                var cursor = tagEnd + 1
                while let open = index(of: UInt8(ascii: "<"), from: cursor), open < close - Self.closeTag.count {
                    guard let nameEnd = index(of: UInt8(ascii: ">"), from: open), nameEnd < close else { return nil }
                    let name = UnsafeBufferPointer(rebasing: bytes[(open + 1)..<nameEnd])
                    cursor = nameEnd + 1
                    guard let field = Self.field(name), let textEnd = index(of: UInt8(ascii: "<"), from: cursor),
                        textEnd <= close
                    else { continue }
                    let text = Self.trimmed(UnsafeBufferPointer(rebasing: bytes[cursor..<textEnd]))
                    switch field {
                    case .time: time = Self.date(text)
                    case .elevation: elevation = Self.number(text)
                    case .speed: speed = Self.number(text)
                    case .course: course = Self.number(text)
                    case .horizontal: horizontal = Self.number(text)
                    case .vertical: vertical = Self.number(text)
                    }
                    cursor = textEnd
                }
            }
            offset = end
            guard let time else { return nil }
            return HKWorkoutRoute.Location(
                timestamp: time.timeIntervalSinceReferenceDate,
                latitude: latitude,
                longitude: longitude,
                altitude: elevation ?? 0,
                horizontalAccuracy: horizontal ?? 0,
                verticalAccuracy: vertical ?? -1,
                course: course ?? -1,
                courseAccuracy: -1,
                speed: speed ?? -1,
                speedAccuracy: -1
            )
        }

        static let closeTag = Array("</trkpt>".utf8)

        enum Field { case elevation, time, speed, course, horizontal, vertical }

        /// The field a child element's name is, if one read.
        static func field(_ name: UnsafeBufferPointer<UInt8>) -> Field? {
            func equals(_ text: StaticString) -> Bool {
                text.utf8CodeUnitCount == name.count
                    && memcmp(text.utf8Start, name.baseAddress!, name.count) == 0
            }
            switch name.count {
            case 3 where equals("ele"): return .elevation
            case 4 where equals("time"): return .time
            case 4 where equals("hAcc"): return .horizontal
            case 4 where equals("vAcc"): return .vertical
            case 5 where equals("speed"): return .speed
            case 6 where equals("course"): return .course
            default: return nil
            }
        }

        /// `bytes` without the spaces and line breaks around them.
        static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            var low = 0
            var high = bytes.count
            while low < high, isSpace(bytes[low]) { low += 1 }
            while high > low, isSpace(bytes[high - 1]) { high -= 1 }
            return UnsafeBufferPointer(rebasing: bytes[low..<high])
        }

        @inline(__always)
        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
            guard let value = ExportNumber.parse(ArraySlice(bytes)), value.isFinite else { return nil }
            return value
        }

        /// A time: `2025-09-17T01:15:00Z` in place; any other ISO 8601 form
        /// (fractions, offsets) through the general parser.
        static func date(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
            guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
                bytes[16] == 0x3A, bytes[19] == 0x5A
            else { return ISO8601.parse(String(decoding: bytes, as: UTF8.self)) }
            func number(_ from: Int, _ count: Int) -> Int? {
                var value = 0
                for index in from..<from + count {
                    let digit = Int(bytes[index]) - 0x30
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
                let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month),
                (1...31).contains(day),
                hour < 24, minute < 60, second < 61
            else { return nil }
            let days = ExportDate.daysFromCivil(year: year, month: month, day: day)
            return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
        }

        func index(of byte: UInt8, from start: Int) -> Int? {
            var index = start
            while index < bytes.count {
                if bytes[index] == byte { return index }
                index += 1
            }
            return nil
        }

        /// The value of attribute `name` within `range` (a tag's bytes).
        func attribute(_ name: String, in range: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
            let needle = Array((" " + name + "=").utf8)
            var index = range.lowerBound
            while index + needle.count < range.upperBound {
                if bytes[index] == needle[0] || bytes[index] == UInt8(ascii: "\n") || bytes[index] == UInt8(ascii: "\t")
                {
                    var matches = true
                    for position in 1..<needle.count where bytes[index + position] != needle[position] {
                        matches = false
                        break
                    }
                    if matches {
                        let quote = bytes[index + needle.count]
                        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
                        let valueStart = index + needle.count + 1
                        var valueEnd = valueStart
                        while valueEnd < range.upperBound, bytes[valueEnd] != quote { valueEnd += 1 }
                        guard valueEnd < range.upperBound else { return nil }
                        return UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])
                    }
                }
                index += 1
            }
            return nil
        }

    }
}
