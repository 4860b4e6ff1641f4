import Anchorage
import Foundation

/// Turns export elements into HealthKit objects.
///
/// Exports carry no bundle identifiers: a source is identified as
/// `export.` followed by its name in lower case, with anything but letters
/// and digits as `-` (`iPhone de Marie` → `export.iphone-de-marie`), and
/// keeps its name. Ids are derived from each element's content, so
/// importing the same file again finds the same ids.
struct ExportObjects {
    /// Why an element was not imported; never holds health values.
    struct Rejection: Error {
        let reason: String
    }

    /// What a record's `type` names.
    private enum RecordType {
        case quantity(HKQuantityType)
        case category(HKCategoryType)
        case unknown
    }

    private var recordTypes = ByteCache<RecordType>()
    private var sources = ByteCache<HKSourceRevision>()
    private var units = ByteCache<HKUnit?>()
    /// Devices by description: an export repeats a handful of them.
    private var devices = ByteCache<HKDevice?>()
    /// The bytes an identifier hashes, reused from element to element.
    var identifierBytes: [UInt8] = []
    /// Recent top-level contents and how often each was seen.
    var occurrences = OccurrenceWindow()
    /// Top-level elements identical to an earlier one, kept as distinct
    /// objects (numbered by occurrence); the importer reports the count.
    var numberedOccurrences = 0
    /// The occurrence, among identical ones in file order, of the top-level
    /// element being built (1: the first); set by its numbered
    /// ``identifier(of:numbered:)``, which every top-level element that
    /// holds others computes before them.
    var occurrence: UInt32 = 1

    mutating func device(_ element: ExportElement) -> HKDevice? {
        guard let bytes = element.bytes(.device) else { return nil }
        return devices.value(for: bytes) { ExportDevice.parse(String(decoding: bytes, as: UTF8.self)) }
    }

    private mutating func recordType(_ bytes: ArraySlice<UInt8>) -> RecordType {
        recordTypes.value(for: bytes) {
            let name = String(decoding: bytes, as: UTF8.self)
            if let type = HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: name)) {
                return .quantity(type)
            }
            if let type = HKObjectType.categoryType(forIdentifier: HKCategoryTypeIdentifier(rawValue: name)) {
                return .category(type)
            }
            return .unknown
        }
    }

    // MARK: Records

    /// A record as a sample. A `topLevel` record identical to an earlier
    /// one is another sample (``identifier(of:numbered:)``); a record
    /// inside a correlation is its top-level twin.
    mutating func sample(_ element: ExportElement, topLevel: Bool = false) throws(Rejection) -> HKSample {
        guard let typeBytes = element.bytes(.type) else { throw Rejection(reason: "a record without a type") }
        let recordType = recordType(typeBytes)
        if case .unknown = recordType {
            throw Rejection(reason: "unknown record type \(String(decoding: typeBytes.prefix(100), as: UTF8.self))")
        }
        let (start, end) = try interval(element)
        let uuid = identifier(of: element, numbered: topLevel)
        let revision = source(element)
        let device = device(element)
        var metadata = Self.metadata(element)
        if let beats = Self.beats(of: element) { metadata[Self.beatsKey] = .string(beats) }
        var value = element.number(.value)
        if case .quantity = recordType, value == nil, let average = element.number(.average) {
            // iOS 8's form of a discrete record: the statistics of the readings it summed.
            value = average
            let unit = try unit(element.bytes(.unit) ?? [])
            for (name, key) in [(ExportName.min, Self.minimumKey), (.max, Self.maximumKey)] {
                if let number = element.number(name) {
                    metadata[key] = .quantity(HKQuantity(unit: unit, doubleValue: number))
                }
            }
        }
        do {
            let fields = try SampleFields.given(start, end, uuid, revision, device, metadata)
            switch recordType {
            case .quantity(let quantityType):
                guard let value else { throw Rejection(reason: Self.valuelessQuantity) }
                let quantity = HKQuantity(unit: try unit(element.bytes(.unit) ?? []), doubleValue: value)
                let sample = try HKQuantitySample.make(type: quantityType, quantity: quantity, fields)
                try ValueRanges.check(quantityType, quantity, duration: end.timeIntervalSince(start))
                return sample
            case .category(let categoryType):
                // Events (a low heart rate, a mindful session) carry no value:
                // HealthKit's `HKCategoryValue.notApplicable`.
                let text = element[.value] ?? "HKCategoryValueNotApplicable"
                guard let value = ExportNames.categoryValues[text] ?? Int(text) else {
                    throw Rejection(reason: "a category record with an unknown value")
                }
                return try HKCategorySample.make(type: categoryType, value: value, fields)
            case .unknown:
                throw Rejection(reason: "an unreadable record")
            }
        } catch let error as HKError {
            throw Rejection(reason: Self.reason(error))
        } catch let rejection as Rejection {
            throw rejection
        } catch {
            throw Rejection(reason: "an unreadable record")
        }
    }

    // MARK: Correlations and workouts

    mutating func correlation(_ element: ExportElement) throws(Rejection) -> HKCorrelation {
        guard let name = element[.type],
            let type = HKObjectType.correlationType(forIdentifier: HKCorrelationTypeIdentifier(rawValue: name))
        else { throw Rejection(reason: "unknown correlation type \((element[.type] ?? "").prefix(100))") }
        let (start, end) = try interval(element)
        // Numbered first: its records are its own twins among identical ones.
        let uuid = identifier(of: element, numbered: true)
        var members = Set<HKSample>()
        for record in element.children(.record) { members.insert(try sample(record)) }
        do {
            return try HKCorrelation.stored(
                type: type,
                start: start,
                end: end,
                objects: members,
                uuid: uuid,
                sourceRevision: source(element),
                device: device(element),
                metadata: Self.metadata(element)
            )
        } catch {
            throw Rejection(reason: Self.reason(error))
        }
    }

    mutating func workout(_ element: ExportElement) throws(Rejection) -> HKWorkout {
        guard let name = element[.workoutActivityType], let activity = ExportNames.activityTypes[name]
        else {
            throw Rejection(reason: "unknown workout activity type")
        }
        let (start, end) = try interval(element)
        // Numbered first: its activities and routes are numbered with it.
        let uuid = identifier(of: element, numbered: true)
        let duration = try quantity(element, .duration, unitKey: .durationUnit, defaultUnit: "min")?
            .doubleValue(for: .second())
        var energy = try quantity(element, .totalEnergyBurned, unitKey: .totalEnergyBurnedUnit, defaultUnit: "kcal")
        var distance = try quantity(element, .totalDistance, unitKey: .totalDistanceUnit, defaultUnit: "km")
        for statistics in element.children(.workoutStatistics) {
            switch statistics[.type] {
            case HKQuantityTypeIdentifier.activeEnergyBurned.rawValue? where energy == nil:
                energy = try quantity(statistics, .sum, unitKey: .unit)
            case let type? where distance == nil && type.hasPrefix("HKQuantityTypeIdentifierDistance"):
                distance = try quantity(statistics, .sum, unitKey: .unit)
            default: break
            }
        }
        let statistics = workoutStatistics(element)
        let events = try events(
            of: element,
            within: DateInterval(start: start, end: max(start, end)),
            tolerance: Self.workoutTolerance
        )
        let metadata = Self.metadata(element)
        let activities = workoutActivities(
            element,
            workoutType: activity,
            start: start,
            end: end,
            workoutMetadata: metadata
        )
        do {
            return try HKWorkout.stored(
                activityType: activity,
                start: start,
                end: end,
                workoutEvents: events.isEmpty ? nil : events,
                duration: min(duration ?? end.timeIntervalSince(start), end.timeIntervalSince(start)),
                totalEnergyBurned: energy,
                totalDistance: distance,
                statistics: statistics,
                workoutActivities: activities,
                uuid: uuid,
                sourceRevision: source(element),
                device: device(element),
                metadata: metadata
            )
        } catch {
            throw Rejection(reason: Self.reason(error))
        }
    }

    /// An element's `WorkoutEvent` children (of a workout or an activity),
    /// within `bounds`.
    ///
    /// Exports write dates to the whole second and durations with their
    /// fractions, so a genuine event can end up to a second past its
    /// workout (an activity's, up to about a minute): an event that ends
    /// or starts at most `tolerance` past `bounds` is clamped to its end,
    /// and counted in ``clamped``. One further out stays as it is, for the
    /// workout's own checks (OBJ-23) to refuse.
    mutating func events(
        of element: ExportElement,
        within bounds: DateInterval,
        tolerance: TimeInterval
    ) throws(Rejection) -> [HKWorkoutEvent] {
        var events: [HKWorkoutEvent] = []
        for event in element.children(.workoutEvent) {
            guard let type = event[.type].flatMap({ ExportNames.eventTypes[$0] }),
                var date = event.bytes(.date).flatMap(ExportDate.parse)
            else { throw Rejection(reason: "an unreadable workout event") }
            var length =
                try quantity(event, .duration, unitKey: .durationUnit, defaultUnit: "min")?.doubleValue(for: .second())
                ?? 0
            let over = date.timeIntervalSince(bounds.end) + max(length, 0)
            if over > 0, over <= tolerance {
                if date > bounds.end { date = bounds.end }
                length = min(max(length, 0), bounds.end.timeIntervalSince(date))
                clamped += 1
            }
            do {
                events.append(
                    try HKWorkoutEvent.validated(type: type, dateInterval: DateInterval(start: date, duration: length))
                )
            } catch {
                throw Rejection(reason: Self.reason(error))
            }
        }
        return events
    }

    /// How far past its workout an event may end, from dates cut to whole
    /// seconds, and be clamped.
    static let workoutTolerance: TimeInterval = 1
    /// How far past its workout an activity's event may end and be clamped
    /// (health-export-format.md: up to about a minute).
    static let activityEventTolerance: TimeInterval = 60

    /// A workout's `WorkoutStatistics` children, for
    /// `HKWorkout.statistics(for:)`. One the store cannot hold (a type it
    /// does not know, a unit the type does not accept, a second one of a
    /// type) is left out and counted in ``leftOut``, not fatal.
    mutating func workoutStatistics(_ element: ExportElement) -> [HKStatistics] {
        var result: [HKStatistics] = []
        var types = Set<HKQuantityType>()
        for child in element.children(.workoutStatistics) {
            let typeBytes = child.bytes(.type) ?? []
            guard case .quantity(let type) = recordType(typeBytes), !types.contains(type) else {
                leftOut["WorkoutStatistics " + String(decoding: typeBytes.prefix(100), as: UTF8.self), default: 0] += 1
                continue
            }
            do throws(Rejection) {
                let start = try date(child, .startDate)
                let end = try date(child, .endDate)
                let sum = try quantity(child, .sum, unitKey: .unit)
                let average = try quantity(child, .average, unitKey: .unit)
                let minimum = try quantity(child, .minimum, unitKey: .unit)
                let maximum = try quantity(child, .maximum, unitKey: .unit)
                result.append(
                    try Self.checked { () throws(HKError) in
                        try HKStatistics.recorded(
                            quantityType: type,
                            startDate: start,
                            endDate: end,
                            sum: sum,
                            average: average,
                            minimum: minimum,
                            maximum: maximum
                        )
                    }
                )
                types.insert(type)
            } catch {
                leftOut["WorkoutStatistics " + type.identifier, default: 0] += 1
            }
        }
        return result
    }

    /// Parts of elements left out (a workout's statistics of an unknown
    /// type…), by name; the importer moves them into its summary.
    var leftOut: [String: Int] = [:]
    /// Workout events and activities that ended past their workout (or
    /// activity) by no more than whole-second dates explain, clamped to
    /// its end; the importer moves the count into its summary.
    var clamped = 0

    static func checked<T>(_ body: () throws(HKError) -> T) throws(Rejection) -> T {
        do {
            return try body()
        } catch {
            throw Rejection(reason: reason(error))
        }
    }

    func date(_ element: ExportElement, _ key: ExportName) throws(Rejection) -> Date {
        guard let date = element.bytes(key).flatMap(ExportDate.parse) else {
            throw Rejection(reason: "a date not in the form 2017-05-24 13:56:15 +0200 (or 20170524135615+0200)")
        }
        return date
    }

    // MARK: Activity summaries

    static let gregorian = Calendar(identifier: .gregorian)

    /// An `ActivitySummary` element: its day (`dateComponents`), energy in
    /// the unit it names (kcal, Cal or kJ), times in minutes, stand hours as
    /// counts. Values it lacks (older exports have no move time) stay 0.
    func activitySummary(_ element: ExportElement) throws(Rejection) -> HKActivitySummary {
        guard let text = element[.dateComponents], let day = ExportDate.day(text) else {
            throw Rejection(reason: "an activity summary without a yyyy-MM-dd day")
        }
        do {
            let summary = try HKActivitySummary(dateComponents: day)
            let energyUnit = try HKUnit.parse(element[.activeEnergyBurnedUnit] ?? "kcal")
            func value(_ key: ExportName, _ unit: HKUnit) throws(Rejection) -> HKQuantity? {
                guard let bytes = element.bytes(key) else { return nil }
                guard let number = ExportNumber.parse(bytes) else {
                    throw Rejection(reason: "\(element.batch.names[key]) is not a number")
                }
                return HKQuantity(unit: unit, doubleValue: number)
            }
            if let quantity = try value(.activeEnergyBurned, energyUnit) { summary.activeEnergyBurned = quantity }
            if let quantity = try value(.activeEnergyBurnedGoal, energyUnit) {
                summary.activeEnergyBurnedGoal = quantity
            }
            if let quantity = try value(.appleMoveTime, .minute()) { summary.appleMoveTime = quantity }
            if let quantity = try value(.appleMoveTimeGoal, .minute()) { summary.appleMoveTimeGoal = quantity }
            if let quantity = try value(.appleExerciseTime, .minute()) { summary.appleExerciseTime = quantity }
            if let quantity = try value(.appleExerciseTimeGoal, .minute()) {
                summary.appleExerciseTimeGoal = quantity
            }
            if let quantity = try value(.appleStandHours, .count()) { summary.appleStandHours = quantity }
            if let quantity = try value(.appleStandHoursGoal, .count()) { summary.appleStandHoursGoal = quantity }
            return summary
        } catch let rejection as Rejection {
            throw rejection
        } catch let error as HKError {
            throw Rejection(reason: Self.reason(error))
        } catch {
            throw Rejection(reason: "an activity summary in units that are not understood")
        }
    }

    // MARK: Fields

    func interval(_ element: ExportElement) throws(Rejection) -> (Date, Date) {
        (try date(element, .startDate), try date(element, .endDate))
    }

    mutating func source(_ element: ExportElement) -> HKSourceRevision {
        // The oldest exports (iOS 8 and 9) name the source `source=`.
        let name = element.bytes(.sourceName) ?? element.bytes(.source)
        let version = element.bytes(.sourceVersion)
        // A marker byte tells a missing field from an empty one.
        var key: [UInt8] = [name == nil ? 0 : 1]
        key.append(contentsOf: name ?? [])
        key.append(version == nil ? 0 : 1)
        key.append(contentsOf: version ?? [])
        return sources.value(for: key[...]) {
            let text = name.map { String(decoding: $0, as: UTF8.self) } ?? "Health export"
            return HKSourceRevision(
                source: HKSource(name: text, bundleIdentifier: Self.bundleIdentifier(forSourceName: text)),
                version: version.map { String(decoding: $0, as: UTF8.self) }
            )
        }
    }

    /// The bundle identifier an export's source is stored under.
    static func bundleIdentifier(forSourceName name: String) -> String {
        let slug = name.lowercased().unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII ? String($0) : "-"
        }.joined()
        return "export." + (slug.isEmpty ? "unnamed" : String(slug.prefix(200)))
    }

    private mutating func unit(_ bytes: ArraySlice<UInt8>) throws(Rejection) -> HKUnit {
        let unit = units.value(for: bytes) { try? HKUnit.parse(String(decoding: bytes, as: UTF8.self)) }
        guard let unit else {
            throw Rejection(reason: "unit \(String(decoding: bytes.prefix(40), as: UTF8.self)) is not understood")
        }
        return unit
    }

    mutating func quantity(
        _ element: ExportElement,
        _ key: ExportName,
        unitKey: ExportName,
        defaultUnit: String? = nil
    ) throws(Rejection) -> HKQuantity? {
        guard let bytes = element.bytes(key) else { return nil }
        guard let value = ExportNumber.parse(bytes) else {
            throw Rejection(reason: "\(element.batch.names[key]) is not a number")
        }
        let unitBytes = element.bytes(unitKey) ?? ArraySlice((defaultUnit ?? "").utf8)
        return HKQuantity(unit: try unit(unitBytes), doubleValue: value)
    }

    /// An element's metadata entries, with what the oldest exports (iOS 8
    /// and 9) write as attributes instead: `HKWasUserEntered="1"` (the
    /// metadata key) and `recordCount="191"` (how many device readings were
    /// summed into the record), kept as `export.recordCount`.
    static func metadata(_ element: ExportElement) -> [String: HKMetadataValue] {
        var metadata = metadata(element.metadata)
        if let entered = element.bytes(.wasUserEntered).flatMap({ Int64(String(decoding: $0, as: UTF8.self)) }),
            metadata[HKMetadataKeyWasUserEntered] == nil
        {
            metadata[HKMetadataKeyWasUserEntered] = .integer(entered == 0 ? 0 : 1)
        }
        if let count = element.bytes(.recordCount).flatMap({ Int64(String(decoding: $0, as: UTF8.self)) }) {
            metadata[Self.recordCountKey] = .integer(count)
        }
        return metadata
    }

    /// The metadata key under which an iOS 8–9 record keeps its
    /// `recordCount` attribute.
    static let recordCountKey = "export.recordCount"

    /// The metadata keys under which an iOS 8–9 discrete record written as
    /// statistics (`min`, `max`, `average`, `recordCount`, no `value`)
    /// keeps its smallest and largest reading; its average is the value.
    static let minimumKey = "export.minimum"
    static let maximumKey = "export.maximum"

    /// Why a quantity record with neither a value nor an average is not
    /// stored (iOS 8 wrote some NikeFuel records so): HealthKit holds no
    /// quantity sample without a quantity.
    static let valuelessQuantity = "a quantity record with neither a value nor an average: nothing to store"

    /// Metadata as typed values: integers, then decimals, else text.
    /// Keys beginning with `HK` that Anchorage does not know (the Health
    /// app writes `HKWeatherTemperature`, `HKAverageMETs`…) would be refused
    /// (OBJ-6), and the record with them: they are kept as `export.HK…`.
    static func metadata(_ entries: [(key: String, value: String)]) -> [String: HKMetadataValue] {
        var metadata: [String: HKMetadataValue] = [:]
        for (key, value) in entries {
            var mapped = ExportNames.metadataKeys[key] ?? key
            if mapped.hasPrefix("HK") && !HKObject.isKnownMetadataKey(mapped) { mapped = "export." + mapped }
            if let integer = Int64(value) {
                metadata[mapped] = .integer(integer)
            } else if let number = Double(value), number.isFinite {
                metadata[mapped] = .double(number)
            } else {
                metadata[mapped] = .string(value)
            }
        }
        return metadata
    }

    /// The metadata key under which a heart-rate-variability record keeps
    /// its per-beat list.
    static let beatsKey = "export.InstantaneousBeatsPerMinute"

    /// A heart-rate-variability record's per-beat readings
    /// (`HeartRateVariabilityMetadataList`), one `bpm time` line each, as
    /// the export wrote them: `62 7:20:30.12 AM`. The times are local times
    /// of day in the phone's format (`01:20:37,80` on a German phone), kept
    /// as they are rather than guessed at. Lines that would take the text
    /// past the 64 KB a metadata string may hold (OBJ-4) are left out; real
    /// lists hold about a hundred beats.
    static func beats(of element: ExportElement) -> String? {
        var text = ""
        for list in element.children where list.name == .heartRateVariabilityMetadataList {
            for beat in list.children where beat.name == .instantaneousBeatsPerMinute {
                guard let bpm = beat[.bpm], let time = beat[.time] else { continue }
                let line = (text.isEmpty ? "" : "\n") + bpm + " " + time
                guard text.utf8.count + line.utf8.count <= HKMetadataValue.maximumStringLength else { return text }
                text += line
            }
        }
        return text.isEmpty ? nil : text
    }

    /// A rejection reason from an error: what was wrong, in words, and
    /// the rule; never the values, which are health data.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? HKError else { return "an unreadable element" }
        guard let rule = error.rule else { return "\(error.code)" }
        let words = ruleWords[rule] ?? "breaks a HealthKit rule"
        return "\(words) (\(rule))"
    }

    static let ruleWords = [
        "OBJ-4": "metadata that cannot be stored",
        "OBJ-6": "an unknown HealthKit metadata key",
        "OBJ-7": "a start after its end, or an invalid date",
        "OBJ-10": "a unit the type does not accept",
        "OBJ-13": "a value the category does not allow",
        "OBJ-17": "a food without any nutrition record",
        "OBJ-18": "a record a correlation cannot hold",
        "AUD-1": "an audiogram point out of range or out of order",
        "VISION-1": "a vision prescription value out of range",
        "CLIN-1": "a clinical record out of its limits",
        "ECG-1": "an electrocardiogram that breaks its rules",
        "SERIES-1": "a route location that is not a place and time",
        "OBJ-19": "a record a correlation cannot hold",
        "OBJ-21": "workout totals in units that do not fit",
        "OBJ-22": "a duration longer than the workout",
        "OBJ-23": "an event outside its workout",
        "OBJ-33": "a sync identifier without its version",
        "VAL-1": "a value outside its type's range",
    ]
}
