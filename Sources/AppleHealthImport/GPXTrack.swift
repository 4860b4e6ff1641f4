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
    static func locations(_ bytes: [UInt8]) -> [CLLocation]? {
        bytes.withUnsafeBufferPointer { buffer -> [CLLocation]? in
            var scanner = Scanner(bytes: buffer)
            var locations: [CLLocation] = []
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

        /// The point whose `<trkpt` ends at `start`.
        mutating func point(at start: Int) -> CLLocation? {
            // Attributes up to the tag's end.
            guard let tagEnd = index(of: UInt8(ascii: ">"), from: start) else { return nil }
            let selfClosing = tagEnd > start && bytes[tagEnd - 1] == UInt8(ascii: "/")
            guard let latitude = attribute("lat", in: start..<tagEnd).flatMap(Self.number),
                let longitude = attribute("lon", in: start..<tagEnd).flatMap(Self.number)
            else { return nil }
            var fields: [String: Double] = [:]
            var time: Date?
            var end = tagEnd + 1
            if !selfClosing {
                offset = tagEnd + 1
                guard let close = find(Array("</trkpt>".utf8)) else { return nil }
                end = close
                var cursor = tagEnd + 1
                while let open = index(of: UInt8(ascii: "<"), from: cursor), open < close - 8 {
                    guard let nameEnd = index(of: UInt8(ascii: ">"), from: open), nameEnd < close else { return nil }
                    let name = String(
                        decoding: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<nameEnd]),
                        as: UTF8.self
                    )
                    cursor = nameEnd + 1
                    guard !name.hasPrefix("/"), !name.hasSuffix("/"),
                        ["ele", "time", "speed", "course", "hAcc", "vAcc"].contains(name),
                        let textEnd = index(of: UInt8(ascii: "<"), from: cursor), textEnd <= close
                    else { continue }
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[cursor..<textEnd]), as: UTF8.self)
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                    if name == "time" {
                        time = ISO8601.parse(text)
                    } else {
                        fields[name] = Self.number(text)
                    }
                    cursor = textEnd
                }
            }
            offset = end
            guard let time else { return nil }
            return CLLocation(
                coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
                altitude: fields["ele"] ?? 0,
                horizontalAccuracy: fields["hAcc"] ?? 0,
                verticalAccuracy: fields["vAcc"] ?? -1,
                course: fields["course"] ?? -1,
                speed: fields["speed"] ?? -1,
                timestamp: time
            )
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
        func attribute(_ name: String, in range: Range<Int>) -> String? {
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
                        return String(
                            decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd]),
                            as: UTF8.self
                        )
                    }
                }
                index += 1
            }
            return nil
        }

        static func number(_ text: String) -> Double? {
            guard text.utf8.count <= 40, let value = Double(text), value.isFinite else { return nil }
            return value
        }
    }
}
