import Anchorage
import Crypto
import Foundation

extension ExportObjects {
    // MARK: Routes

    /// What a `WorkoutRoute` element gave.
    enum RouteOutcome {
        /// A route, to be saved associated with its workout.
        case route(HKWorkoutRoute)
        /// Its file is not in the export (or not readable as a route file).
        case missingFile(String)
        case rejected(String)
    }

    /// A workout's `WorkoutRoute` child as a route: its inline `Location`
    /// children (older exports) or the GPX file its `FileReference` names
    /// (iOS 13 on), read with `read`. The route spans its locations and
    /// the element's dates; its uuid comes from the element and the file's
    /// path, so a second import finds the same one.
    mutating func route(
        _ element: ExportElement,
        read: (String) throws(ImportError) -> [UInt8]?
    ) throws(ImportError) -> RouteOutcome {
        var locations: [HKWorkoutRoute.Location] = []
        var path: String?
        for child in element.children {
            if child.name == .location {
                guard let location = Self.location(child) else {
                    return .rejected("a route location without a readable place and time (SERIES-1)")
                }
                locations.append(HKWorkoutRoute.Location(location))
            } else if child.name == .fileReference, let reference = child[.path] {
                path = reference
            }
        }
        if let path, locations.isEmpty {
            guard let bytes = try read(path) else { return .missingFile(path) }
            guard let track = GPXTrack.locations(bytes) else {
                return .rejected("a route file that is not a readable GPX track (SERIES-1)")
            }
            locations = track
        }
        guard !locations.isEmpty else { return .rejected("a route without locations (SERIES-1)") }
        // Time order, equal times in file order; a file in order (all of
        // them) is not sorted again.
        var sorted = locations
        if !zip(locations, locations.dropFirst()).allSatisfy({ $0.timestamp <= $1.timestamp }) {
            sorted = locations.enumerated().sorted { lhs, rhs in
                (lhs.element.timestamp, lhs.offset) < (rhs.element.timestamp, rhs.offset)
            }.map(\.element)
        }
        let first = Date(timeIntervalSinceReferenceDate: sorted[0].timestamp)
        let last = Date(timeIntervalSinceReferenceDate: sorted[sorted.count - 1].timestamp)
        let bounds = try? interval(element)
        let start = min(bounds?.0 ?? first, first)
        let end = max(bounds?.1 ?? last, last)
        var uuid = identifier(of: element)
        if let path { uuid = Self.derived(from: uuid, label: "route file " + path) }
        do throws(HKError) {
            let fields = try SampleFields.given(
                start,
                end,
                uuid,
                source(element),
                device(element),
                Self.metadata(element)
            )
            return .route(try HKWorkoutRoute.make(points: HKWorkoutRoute.points(sorted), fields))
        } catch {
            return .rejected(Self.reason(error))
        }
    }

    /// An inline `Location`: its date, position, and what else it gives.
    private static func location(_ element: ExportElement) -> CLLocation? {
        guard let date = element.bytes(.date).flatMap(ExportDate.parse),
            let latitude = element.number(.latitude), let longitude = element.number(.longitude)
        else { return nil }
        return CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
            altitude: leadingNumber(element, .altitude) ?? 0,
            horizontalAccuracy: leadingNumber(element, .horizontalAccuracy) ?? 0,
            verticalAccuracy: leadingNumber(element, .verticalAccuracy) ?? -1,
            course: leadingNumber(element, .course) ?? -1,
            speed: leadingNumber(element, .speed) ?? -1,
            timestamp: date
        )
    }

    /// The number an attribute starts with (`"243.2 m"` → 243.2).
    private static func leadingNumber(_ element: ExportElement, _ name: ExportName) -> Double? {
        guard let bytes = element.bytes(name) else { return nil }
        let number = bytes.prefix { $0 != UInt8(ascii: " ") }
        return ExportNumber.parse(number)
    }

    // MARK: Heartbeats

    /// A heart-rate-variability record's per-beat list as a heartbeat
    /// series starting at the record's start: each `time=` is a local time
    /// of day (`7:20:30.12 AM`, `01:20:37,80`) on the record's date, in the
    /// record's offset; a list that crosses midnight goes on into the next
    /// day. Beats before the start (by more than the second the export cut
    /// from its dates) or not later than the one before are left out and
    /// counted in `skipped`.
    mutating func heartbeats(
        of element: ExportElement,
        record: HKSample,
        skipped: inout Int,
        shifted: inout Int
    ) -> HKHeartbeatSeriesSample? {
        guard let startBytes = element.bytes(.startDate), let offset = ExportDate.offset(startBytes) else { return nil }
        // Whole seconds of the start's local time of day; each beat's time
        // is counted from it in whole seconds plus the beat's own fraction,
        // so `0.91` stays 0.91 rather than a difference of large numbers.
        let local = Int((record.startDate.timeIntervalSince1970).rounded(.down)) + offset
        let startOfDay = ((local % 86_400) + 86_400) % 86_400
        var times: [(whole: Int, fraction: String)] = []
        for list in element.children where list.name == .heartRateVariabilityMetadataList {
            for beat in list.children where beat.name == .instantaneousBeatsPerMinute {
                guard let raw = beat.bytes(.time),
                    let seconds = Self.plainSecondsOfDay(raw)
                        ?? Self.secondsOfDay(String(decoding: raw, as: UTF8.self))
                else {
                    skipped += 1
                    continue
                }
                var whole = seconds.whole - startOfDay
                if whole < -43_200 { whole += 86_400 }
                times.append((whole, seconds.fraction))
            }
        }
        // Some exports write the beats' times in another offset than the
        // record's (the phone's zone when it exported, or a file whose dates
        // were moved): when the first beat falls outside the record, the
        // whole quarter hours that put it inside are taken off every beat.
        if let first = times.first {
            let length = Int(record.endDate.timeIntervalSince(record.startDate).rounded(.up))
            if first.whole < -1 || first.whole > length + 1 {
                let quarters = (-Double(first.whole) / 900).rounded()
                let shift = Int(quarters) * 900
                if (-1...(length + 1)).contains(first.whole + shift) {
                    times = times.map { ($0.whole + shift, $0.fraction) }
                    shifted += 1
                }
            }
        }
        var beats: [HKHeartbeatSeriesSample.Beat] = []
        var previous = -Double.infinity
        for (whole, fraction) in times {
            var time = Self.beatTime(whole: whole, fraction: fraction)
            if time < 0 && time >= -1 { time = 0 }
            guard time.isFinite, time >= 0, time > previous, beats.count < HKHeartbeatSeriesSample.maximumBeats else {
                skipped += 1
                continue
            }
            beats.append(.init(timeSinceSeriesStart: time, precededByGap: false))
            previous = time
        }
        guard let last = beats.last else { return nil }
        let fields = SampleFields(
            start: record.startDate,
            end: Date(
                timeIntervalSinceReferenceDate: record.startDate.timeIntervalSinceReferenceDate
                    + last.timeSinceSeriesStart
            ),
            uuid: Self.derived(from: record.uuid, label: "heartbeats"),
            sourceRevision: record.sourceRevision,
            device: record.device,
            metadata: .empty
        )
        return try? HKHeartbeatSeriesSample.make(points: HKHeartbeatSeriesSample.points(beats), fields)
    }

    /// ``secondsOfDay(_:)`` of the forms nearly every export writes,
    /// `H:MM:SS` or `H:MM:SS.fff` in ASCII digits (no comma), alone or
    /// followed by a space (or a no-break or narrow no-break space) and `AM`
    /// or `PM` in either case, read from its bytes: the same answer, without
    /// the general reading's text searches (a few per beat, thousands of
    /// beats per record). `nil` for any other form, and for values out of
    /// range, which the general reading then answers.
    static func plainSecondsOfDay(_ bytes: ArraySlice<UInt8>) -> (whole: Int, fraction: String)? {
        var bytes = bytes
        let marker = Self.dayHalfMarker(&bytes)
        var fields = (0, 0, 0)
        var digits = 0
        var field = 0
        var fractionStart: Int?
        for index in bytes.indices {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard fractionStart == nil else { continue }
                digits += 1
                guard digits <= 2 else { return nil }
                let value = Int(byte - UInt8(ascii: "0"))
                switch field {
                case 0: fields.0 = fields.0 * 10 + value
                case 1: fields.1 = fields.1 * 10 + value
                default: fields.2 = fields.2 * 10 + value
                }
            case UInt8(ascii: ":"):
                guard digits > 0, field < 2 else { return nil }
                field += 1
                digits = 0
            case UInt8(ascii: "."):
                guard field == 2, digits > 0, fractionStart == nil else { return nil }
                fractionStart = index + 1
            default:
                return nil
            }
        }
        guard field == 2, digits > 0, fields.0 < 24, fields.1 < 60, fields.2 < 61 else { return nil }
        var fraction = ""
        if let fractionStart {
            // The general reading takes seconds of at most 12 characters, fraction included.
            guard fractionStart < bytes.endIndex, digits + 1 + (bytes.endIndex - fractionStart) <= 12 else {
                return nil
            }
            fraction = String(decoding: bytes[fractionStart...], as: UTF8.self)
        }
        var hours = fields.0
        if marker == .afternoon && hours < 12 { hours += 12 }
        if marker == .morning && hours == 12 { hours = 0 }
        return (hours * 3_600 + fields.1 * 60 + fields.2, fraction)
    }

    private enum DayHalf { case morning, afternoon }

    /// Takes a trailing ` AM`/` PM` (either case; the space may be U+00A0 or
    /// U+202F, as newer phones write it) off `bytes`, and says which.
    private static func dayHalfMarker(_ bytes: inout ArraySlice<UInt8>) -> DayHalf? {
        guard bytes.count >= 4, bytes.last == UInt8(ascii: "M") || bytes.last == UInt8(ascii: "m") else { return nil }
        let letter = bytes[bytes.endIndex - 2] | 0x20
        let half: DayHalf
        switch letter {
        case UInt8(ascii: "a"): half = .morning
        case UInt8(ascii: "p"): half = .afternoon
        default: return nil
        }
        let text = bytes.dropLast(2)
        if text.last == UInt8(ascii: " ") {
            bytes = text.dropLast()
        } else if text.count >= 2, text.suffix(2).elementsEqual([0xC2, 0xA0]) {
            bytes = text.dropLast(2)
        } else if text.count >= 3, text.suffix(3).elementsEqual([0xE2, 0x80, 0xAF]) {
            bytes = text.dropLast(3)
        } else {
            return nil
        }
        return half
    }

    /// A beat's time, `whole` seconds and the decimal digits `fraction`,
    /// read as the decimal it was written as, once: 1.93, not 1 + 0.93.
    /// Up to ten digits after a non-negative whole, as the quotient of two
    /// integers a double holds exactly (IEEE division rounds once, as
    /// reading the text does); other times through their text.
    static func beatTime(whole: Int, fraction: String) -> Double {
        if whole >= 0, whole < 1 << 20, fraction.utf8.count <= 10 {
            var numerator = whole
            var scale = 1
            var plain = true
            for byte in fraction.utf8 {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                    plain = false
                    break
                }
                numerator = numerator * 10 + Int(byte - UInt8(ascii: "0"))
                scale *= 10
            }
            if plain { return Double(numerator) / Double(scale) }
        }
        let digits = fraction.isEmpty ? "0" : fraction
        return whole >= 0
            ? Double("\(whole).\(digits)") ?? .nan : Double(whole) + (Double("0." + digits) ?? .nan)
    }

    /// Seconds since midnight of a time of day as the phone wrote it —
    /// `7:20:30.12 AM`, `19:20:30,12`, `7:20:30.12 p.m.` — as whole seconds
    /// and the fraction's digits as written; `nil` otherwise.
    static func secondsOfDay(_ text: String) -> (whole: Int, fraction: String)? {
        let lower = text.lowercased()
        let afternoon = lower.contains("pm") || lower.contains("p.m.") || lower.contains("p. m.")
        let morning = lower.contains("am") || lower.contains("a.m.") || lower.contains("a. m.")
        let numeric = text.prefix { $0.isNumber || $0 == ":" || $0 == "." || $0 == "," }
        // After the numbers: nothing, or a morning or afternoon marker.
        let rest = text.dropFirst(numeric.count).trimmingCharacters(in: .whitespaces)
        guard rest.isEmpty || morning || afternoon, rest.count <= 8 else { return nil }
        let parts = numeric.split(separator: ":")
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 12 }) else { return nil }
        let secondParts = parts[2].split(separator: ".", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        guard secondParts.count <= 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
            let second = Int(secondParts[0]), (0..<24).contains(hour), (0..<60).contains(minute),
            (0..<61).contains(second)
        else { return nil }
        var fraction = ""
        if secondParts.count == 2 {
            guard !secondParts[1].isEmpty, secondParts[1].allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            fraction = String(secondParts[1])
        }
        var hours = hour
        if afternoon && hour < 12 { hours += 12 }
        if morning && hour == 12 { hours = 0 }
        return (hours * 3_600 + minute * 60 + second, fraction)
    }

    // MARK: Identifiers

    /// A uuid for an object made from another (a route's file, a record's
    /// beats): the first's time prefix, the rest from SHA-256 of its bytes
    /// and `label`.
    static func derived(from uuid: UUID, label: String) -> UUID {
        var input = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        input.append(contentsOf: label.utf8)
        var bytes = Array(SHA256.hash(data: input))
        withUnsafeBytes(of: uuid.uuid) { original in
            for index in 0..<6 { bytes[index] = original[index] }
        }
        return versionEight(bytes)
    }
}
