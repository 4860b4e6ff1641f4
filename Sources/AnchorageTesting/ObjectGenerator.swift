public import AnchorageModel
import Foundation

/// Random objects of every kind, with metadata, devices and revisions.
public struct ObjectGenerator {
    public var random: SeededGenerator
    /// A string every object carries when set: in its source's name and
    /// bundle id, its device's name and a metadata value (a test looking
    /// for it in a store's files); `nil` leaves the objects as they were.
    public var marker: String?

    public init(seed: UInt64, marker: String? = nil) {
        random = SeededGenerator(seed: seed)
        self.marker = marker
    }

    public mutating func bool() -> Bool { Bool.random(using: &random) }
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    public mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }

    /// A uuid drawn from the seed.
    public mutating func uuid() -> UUID { UUID.random(using: &random) }

    public mutating func text() -> String {
        let pieces = ["a", "Zürich", "🙂", "b-c", "ø", "long text ", "日本", "x"]
        return (0..<int(0...4)).map { _ in pieces[int(0...pieces.count - 1)] }.joined()
    }

    public mutating func date() -> Date {
        // Any date from 1900 to 2100, with a random fraction.
        Date(timeIntervalSinceReferenceDate: double(-3_200_000_000...3_100_000_000))
    }

    public mutating func revision() -> HKSourceRevision {
        HKSourceRevision(
            source: marker.map {
                HKSource(name: "\($0) source", bundleIdentifier: "org.\($0).app" + String(int(0...3)))
            }
                ?? HKSource(name: text(), bundleIdentifier: "com.example." + String(int(0...3))),
            version: bool() ? String(int(1...9)) + "." + String(int(0...9)) : nil,
            productType: bool() ? "iPhone\(int(10...16)),\(int(1...3))" : nil,
            operatingSystemVersion: OperatingSystemVersion(
                majorVersion: int(0...18),
                minorVersion: int(0...9),
                patchVersion: int(0...9)
            )
        )
    }

    public mutating func device() -> HKDevice? {
        if let marker {
            return HKDevice(
                name: "\(marker) watch",
                manufacturer: nil,
                model: nil,
                hardwareVersion: nil,
                firmwareVersion: nil,
                softwareVersion: nil,
                localIdentifier: nil,
                udiDeviceIdentifier: nil
            )
        }
        guard bool() else { return nil }
        func maybe(_ g: inout ObjectGenerator) -> String? { g.bool() ? g.text() : nil }
        return HKDevice(
            name: maybe(&self),
            manufacturer: maybe(&self),
            model: maybe(&self),
            hardwareVersion: maybe(&self),
            firmwareVersion: maybe(&self),
            softwareVersion: maybe(&self),
            localIdentifier: maybe(&self),
            udiDeviceIdentifier: maybe(&self)
        )
    }

    package mutating func metadata() -> HKMetadata {
        var values: [String: HKMetadataValue] = [:]
        for index in 0..<int(0...4) {
            let key = "key\(index)-" + text()
            switch int(0...5) {
            case 0: values[key] = .string(text())
            case 1: values[key] = .integer(Int64.random(in: Int64.min...Int64.max, using: &random))
            case 2: values[key] = .double(double(-1e12...1e12))
            case 3: values[key] = .bool(bool())
            case 4: values[key] = .date(date())
            default: values[key] = .quantity(HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: double(0...200)))
            }
        }
        if let marker { values["note"] = .string("\(marker) note") }
        if bool() {
            values[HKMetadataKeySyncIdentifier] = .string(text())
            values[HKMetadataKeySyncVersion] = .integer(Int64(int(0...100)))
        }
        return HKMetadata(values: values)
    }

    public static let units: [HKQuantityTypeIdentifier: [HKUnit]] = [
        .stepCount: [.count()],
        .heartRate: [HKUnit(from: "count/min"), HKUnit(from: "count/s"), .hertz()],
        .bodyMass: [.gramUnit(with: .kilo), .pound(), .stone()],
        .bloodGlucose: [HKUnit(from: "mg/dL"), HKUnit(from: "mmol<180.15588000005408>/L")],
        .activeEnergyBurned: [.kilocalorie(), .jouleUnit(with: .kilo), .largeCalorie()],
        .bodyTemperature: [.degreeCelsius(), .degreeFahrenheit()],
        .dietaryWater: [.literUnit(with: .milli), .fluidOunceUS()],
        .environmentalAudioExposure: [.decibelAWeightedSoundPressureLevel()],
        .distanceWalkingRunning: [.meter(), .mile(), .meterUnit(with: .kilo)],
    ]

    public mutating func quantitySample(type identifier: HKQuantityTypeIdentifier? = nil) -> HKQuantitySample {
        let keys = Array(Self.units.keys).sorted { $0.rawValue < $1.rawValue }
        let identifier = identifier ?? keys[int(0...keys.count - 1)]
        let type = HKQuantityType(identifier)
        let units = Self.units[identifier] ?? [type.canonicalUnit]
        let start = date()
        let quantity = HKQuantity(unit: units[int(0...units.count - 1)], doubleValue: double(0...10_000))
        return try! HKQuantitySample.make(type: type, quantity: quantity, fields(start, double(0...86_400)))
    }

    /// A sample of 1–`quantities` quantities (SERIES-6) of a cumulative or
    /// discrete type, each inside the sample's interval, some instants,
    /// some with gaps between them.
    public mutating func quantitySeries(
        type identifier: HKQuantityTypeIdentifier? = nil,
        quantities: ClosedRange<Int> = 1...40
    ) -> HKQuantitySample {
        let identifiers: [HKQuantityTypeIdentifier] = [
            .stepCount, .activeEnergyBurned, .heartRate, .distanceWalkingRunning,
        ]
        let type = HKQuantityType(identifier ?? identifiers[int(0...identifiers.count - 1)])
        let start = date()
        var time = start.timeIntervalSinceReferenceDate + (bool() ? 0 : double(0...60))
        var parts: [QuantitySeries.Quantity] = []
        for _ in 0..<int(quantities) {
            let length = int(0...4) == 0 ? 0 : double(0.5...600)
            // Canonical units: heart rate in count/s (42 to 180 a minute).
            let value =
                type.identifier == HKQuantityTypeIdentifier.heartRate.rawValue ? double(0.7...3) : double(1...200)
            parts.append(QuantitySeries.Quantity(start: time, end: time + length, value: value))
            time += length + (bool() ? 0.001 : double(0.001...300))
        }
        let end = parts.map(\.end).max()! + (bool() ? 0 : double(0...60))
        return try! HKQuantitySample.makeSeries(
            type: type,
            points: QuantitySeries(quantities: parts).points!,
            SampleFields(
                start: start,
                end: Date(timeIntervalSinceReferenceDate: end),
                uuid: uuid(),
                sourceRevision: revision(),
                device: device(),
                metadata: metadata()
            )
        )
    }

    public mutating func categorySample() -> HKCategorySample {
        let types = TypeCatalog.categoryTypes.values.filter {
            $0.identifier != HKCategoryTypeIdentifier.menstrualFlow.rawValue
        }
        .sorted { $0.kindCode < $1.kindCode }
        let type = types[int(0...types.count - 1)]
        let start = date()
        let value = int(type.legalValues.lowerBound...type.legalValues.upperBound)
        return try! HKCategorySample.make(type: type, value: value, fields(start, double(0...36_000)))
    }

    public mutating func correlation() -> HKCorrelation {
        let start = date()
        if bool() {
            let systolic = quantitySampleOf(.bloodPressureSystolic, at: start)
            let diastolic = quantitySampleOf(.bloodPressureDiastolic, at: start)
            return try! HKCorrelation.make(
                type: HKCorrelationType(.bloodPressure),
                objects: [systolic, diastolic],
                fields(start, 0)
            )
        }
        let foods: [HKSample] = (0..<int(1...4)).map { _ in
            quantitySampleOf([.dietaryEnergyConsumed, .dietaryProtein, .dietaryFatTotal][int(0...2)], at: start)
        }
        return try! HKCorrelation.make(type: HKCorrelationType(.food), objects: Set(foods), fields(start, 600))
    }

    /// A sample's common fields from `start` for `length` seconds, with a
    /// new uuid and a random revision, device and metadata.
    package mutating func fields(_ start: Date, _ length: TimeInterval) -> SampleFields {
        SampleFields(
            start: start,
            end: start.addingTimeInterval(length),
            uuid: uuid(),
            sourceRevision: revision(),
            device: device(),
            metadata: metadata()
        )
    }

    private mutating func quantitySampleOf(_ identifier: HKQuantityTypeIdentifier, at start: Date) -> HKQuantitySample {
        let type = HKQuantityType(identifier)
        let quantity = HKQuantity(unit: type.canonicalUnit, doubleValue: double(0...300))
        let fields = SampleFields(
            start: start,
            end: start,
            uuid: uuid(),
            sourceRevision: revision(),
            device: nil,
            metadata: .empty
        )
        return try! HKQuantitySample.make(type: type, quantity: quantity, fields)
    }

    public mutating func workout() -> HKWorkout {
        let start = date()
        let length = double(600...7_200)
        let end = start.addingTimeInterval(length)
        var events: [HKWorkoutEvent] = []
        var cursor = start
        var paused = false
        for _ in 0..<int(0...6) {
            cursor = cursor.addingTimeInterval(double(0...length / 8))
            guard cursor <= end else { break }
            let type: HKWorkoutEventType = [.pause, .resume, .lap, .marker, .segment][int(0...4)]
            if type == .pause && paused || type == .resume && !paused { continue }
            if type == .pause { paused = true }
            if type == .resume { paused = false }
            let eventEnd =
                type == .lap || type == .segment ? min(end, cursor.addingTimeInterval(double(0...60))) : cursor
            events.append(
                HKWorkoutEvent(
                    type: type,
                    dateInterval: DateInterval(start: cursor, end: eventEnd),
                    typedMetadata: bool() ? metadata() : .empty
                )
            )
        }
        let totals = HKWorkout.Totals(
            energyBurned: bool() ? HKQuantity(unit: .kilocalorie(), doubleValue: double(0...2_000)) : nil,
            distance: bool() ? HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: double(0...42)) : nil,
            swimmingStrokeCount: bool() ? HKQuantity(unit: .count(), doubleValue: Double(int(0...3_000))) : nil,
            flightsClimbed: bool() ? HKQuantity(unit: .count(), doubleValue: Double(int(0...100))) : nil
        )
        let parts = HKWorkout.Parts(
            activityType: HKWorkoutActivityType.allCases[int(0...HKWorkoutActivityType.allCases.count - 1)],
            events: events,
            duration: try! HKWorkout.activeDuration(start: start, end: end, events: events, explicit: nil),
            totals: totals,
            statistics: Self.statistics(start: start, end: end, totals: totals, events: events.count),
            activities: Self.activities(start: start, end: end, events: events.count)
        )
        return try! HKWorkout.make(parts, fields(start, length))
    }

    /// Activities derived from a workout's other fields (the random stream
    /// stays as it was): with 2 or 5 events, a ride then a run splitting
    /// the workout at its middle, the ride with a distance and the run with
    /// a lap and metadata.
    public static func activities(start: Date, end: Date, events: Int) -> [HKWorkoutActivity] {
        guard events % 3 == 2 else { return [] }
        let middle = start.addingTimeInterval(end.timeIntervalSince(start) / 2)
        let ride = HKWorkoutConfiguration()
        ride.activityType = .cycling
        ride.locationType = .outdoor
        let run = HKWorkoutConfiguration()
        run.activityType = .running
        return [
            try! HKWorkoutActivity.validated(
                workoutConfiguration: ride,
                start: start,
                end: middle,
                statistics: [
                    try! .recorded(
                        quantityType: HKQuantityType(.distanceCycling),
                        startDate: start,
                        endDate: middle,
                        sum: HKQuantity(unit: .meter(), doubleValue: middle.timeIntervalSince(start) * 7.5)
                    )
                ]
            ),
            try! HKWorkoutActivity.validated(
                workoutConfiguration: run,
                start: middle,
                end: end,
                workoutEvents: [
                    HKWorkoutEvent(type: .lap, dateInterval: DateInterval(start: middle, end: end), metadata: nil)
                ],
                metadata: [HKMetadataKeyIndoorWorkout: false, "split": "second half"]
            ),
        ]
    }

    /// Recorded statistics derived from a workout's other fields (so the
    /// random stream stays what other tests were written against): the
    /// energy total as a sum, and with an odd number of events a heart rate.
    package static func statistics(start: Date, end: Date, totals: HKWorkout.Totals, events: Int) -> [HKStatistics] {
        var result: [HKStatistics] = []
        if let energy = totals.energyBurned {
            result.append(
                try! HKStatistics.recorded(
                    quantityType: HKQuantityType(.activeEnergyBurned),
                    startDate: start,
                    endDate: end,
                    sum: energy
                )
            )
        }
        if events % 2 == 1 {
            let perMinute = HKUnit.count().unitDivided(by: .minute())
            let seconds = end.timeIntervalSince(start)
            result.append(
                try! HKStatistics.recorded(
                    quantityType: HKQuantityType(.heartRate),
                    startDate: start,
                    endDate: start.addingTimeInterval(seconds / 2),
                    average: HKQuantity(
                        unit: perMinute,
                        doubleValue: 100 + seconds.truncatingRemainder(dividingBy: 50)
                    ),
                    minimum: HKQuantity(unit: perMinute, doubleValue: 60),
                    maximum: HKQuantity(unit: perMinute, doubleValue: 190.5)
                )
            )
        }
        return result
    }

    public mutating func object() -> HKSample {
        switch int(0...19) {
        case 0...4: quantitySample()
        case 5...6: categorySample()
        case 7: correlation()
        case 8...9: workout()
        case 10: route()
        case 11: heartbeatSeries()
        case 12: electrocardiogram()
        case 13: audiogram()
        case 14: stateOfMind()
        case 15: assessment()
        case 16: visionPrescription()
        case 17: quantitySeries()
        case 18: clinicalRecord()
        default: medicationDoseEvent()
        }
    }

    /// A route of 1–200 locations a few seconds apart, some with unknown
    /// course and speed (−1), some at equal times.
    public mutating func route(locations: ClosedRange<Int> = 1...200) -> HKWorkoutRoute {
        let start = date()
        var time = start.timeIntervalSinceReferenceDate
        var points: [CLLocation] = []
        for _ in 0..<int(locations) {
            time += int(0...9) == 0 ? 0 : double(0.001...5)
            let known = bool()
            points.append(
                CLLocation(
                    coordinate: CLLocationCoordinate2D(latitude: double(-90...90), longitude: double(-180...180)),
                    altitude: double(-400...8_000),
                    horizontalAccuracy: double(0...50),
                    verticalAccuracy: known ? double(0...50) : -1,
                    course: known ? double(0...359.9) : -1,
                    courseAccuracy: known ? double(0...45) : -1,
                    speed: known ? double(0...12) : -1,
                    speedAccuracy: known ? double(0...2) : -1,
                    timestamp: Date(timeIntervalSinceReferenceDate: time)
                )
            )
        }
        var fields = fields(start, 0)
        fields.end = points.last!.timestamp
        return try! HKWorkoutRoute.make(points: HKWorkoutRoute.points(points), fields)
    }

    /// An electrocardiogram of 0–2,000 voltages (microvolts, as volts) at
    /// 512 Hz on the watch's lead, with any classification and symptoms.
    public mutating func electrocardiogram(measurements: ClosedRange<Int> = 0...2_000) -> HKElectrocardiogram {
        let start = date()
        let count = int(measurements)
        let classifications: [HKElectrocardiogram.Classification] = [
            .notSet, .sinusRhythm, .atrialFibrillation, .inconclusiveLowHeartRate, .inconclusiveHighHeartRate,
            .inconclusivePoorReading, .inconclusiveOther, .unrecognized,
        ]
        let volts = (0..<count).map { _ in double(-2_000...2_000) / 1_000_000 }
        let fields = fields(start, Double(count) / 512)
        return try! HKElectrocardiogram.stored(
            start: fields.start,
            end: fields.end,
            classification: classifications[int(0...classifications.count - 1)],
            symptomsStatus: [.notSet, .none, .present][int(0...2)],
            averageHeartRate: bool() ? HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: double(40...180)) : nil,
            samplingFrequency: count > 0 || bool() ? HKQuantity(unit: .hertz(), doubleValue: 512) : nil,
            voltages: count > 0 || bool() ? [.appleWatchSimilarToLeadI: volts] : [:],
            uuid: fields.uuid,
            sourceRevision: fields.sourceRevision,
            device: fields.device,
            metadata: fields.metadata.values
        )
    }

    /// A state of mind with up to five labels and three associations.
    public mutating func stateOfMind() -> HKStateOfMind {
        let start = date()
        var labels: [HKStateOfMind.Label] = []
        for _ in 0..<int(0...5) {
            let label = HKStateOfMind.Label.allCases[int(0...HKStateOfMind.Label.allCases.count - 1)]
            if !labels.contains(label) { labels.append(label) }
        }
        var associations: [HKStateOfMind.Association] = []
        for _ in 0..<int(0...3) {
            let association = HKStateOfMind.Association.allCases[int(0...HKStateOfMind.Association.allCases.count - 1)]
            if !associations.contains(association) { associations.append(association) }
        }
        return try! HKStateOfMind.make(
            kind: bool() ? .dailyMood : .momentaryEmotion,
            valence: double(-1...1),
            labels: labels,
            associations: associations,
            fields(start, 0)
        )
    }

    /// A clinical record of any clinical type, most with a FHIR resource.
    public mutating func clinicalRecord() -> HKClinicalRecord {
        let types = TypeCatalog.clinicalTypes.values.sorted { $0.kindCode < $1.kindCode }
        let type = types[int(0...types.count - 1)]
        let resource: HKFHIRResource? =
            int(0...4) == 0
            ? nil
            : try! HKFHIRResource(
                resourceType: [.immunization, .condition, .observation, .procedure][int(0...3)],
                identifier: "r" + String(int(1...999_999)),
                data: Data(#"{"resourceType":"Observation","id":"\#(int(1...99))","status":"final"}"#.utf8),
                sourceURL: bool() ? URL(string: "https://fhir.example.org/r/\(int(1...999))") : nil,
                fhirVersion: bool() ? .primaryR4() : .primaryDSTU2()
            )
        return try! HKClinicalRecord.make(type: type, displayName: text(), resource: resource, fields(date(), 0))
    }

    /// A vision prescription: image-only, glasses (some with a prism) or contacts.
    public mutating func visionPrescription() -> HKVisionPrescription {
        let start = date()
        let expiration: Date? = bool() ? start.addingTimeInterval(double(86_400...800 * 86_400)) : nil
        let form = UInt8(int(0...2))
        func lens(_ contacts: Bool) -> LensValues? {
            guard bool() else { return nil }
            var lens = LensValues(sphere: (double(-20...20) * 4).rounded() / 4)
            if bool() {
                lens.cylinder = (double(-6...0) * 4).rounded() / 4
                lens.axis = Double(int(0...180))
            }
            if bool() { lens.addPower = double(0...3) }
            if contacts {
                lens.baseCurve = bool() ? double(8...9) : nil
                lens.diameter = bool() ? double(13...15) : nil
            } else {
                lens.vertexDistance = bool() ? double(12...14) : nil
                lens.farPupillaryDistance = bool() ? double(28...36) : nil
                lens.nearPupillaryDistance = bool() ? double(26...34) : nil
                if bool() {
                    lens.prism = HKVisionPrism(
                        magnitude: double(0...5),
                        degrees: double(0...360),
                        vertical: double(0...3),
                        horizontal: double(0...4),
                        verticalBase: bool() ? .up : .down,
                        horizontalBase: bool() ? .in : .out,
                        eye: bool() ? .left : .right
                    )
                }
            }
            return lens
        }
        var fields = fields(start, 0)
        fields.end = expiration ?? start
        return try! HKVisionPrescription.make(
            class: form,
            type: form == 2 ? .contacts : form == 1 ? .glasses : (bool() ? .glasses : .contacts),
            expiration: expiration,
            right: form == 0 ? nil : lens(form == 2),
            left: form == 0 ? nil : lens(form == 2),
            brand: form == 2 ? text() : nil,
            fields
        )
    }

    /// A GAD-7 or a PHQ-9 with random answers.
    public mutating func assessment() -> HKScoredAssessment {
        let gad = bool()
        let answers = (0..<(gad ? 7 : 9)).map { index in int(0...(gad ? 3 : (index == 8 ? 4 : 3))) }
        let type = TypeCatalog.scoredAssessmentTypes[gad ? .GAD7 : .PHQ9]!
        return try! HKScoredAssessment.make(type: type, answers: answers, fields(date(), 0))
    }

    /// An audiogram of 1–30 frequencies, each with one to four tests.
    public mutating func audiogram() -> HKAudiogramSample {
        let start = date()
        var hertz = double(100...200)
        var points: [HKAudiogramSensitivityPoint] = []
        for _ in 0..<int(1...30) {
            hertz += double(1...800)
            var tests: [HKAudiogramSensitivityTest] = []
            for _ in 0..<int(1...4) {
                let lower: Double? = bool() ? double(-20...0) : nil
                let range =
                    bool()
                    ? try! HKAudiogramSensitivityPointClampingRange(
                        lower: lower,
                        upper: lower == nil || bool() ? double(100...150) : nil
                    ) : nil
                tests.append(
                    try! HKAudiogramSensitivityTest(
                        level: double(-20...150),
                        type: .air,
                        masked: bool(),
                        side: bool() ? .left : .right,
                        clampingRange: range
                    )
                )
            }
            points.append(try! HKAudiogramSensitivityPoint(hertz: hertz, tests: tests))
        }
        return try! HKAudiogramSample.make(points: points, fields(start, double(60...900)))
    }

    /// A heartbeat series of 1–300 beats, some after a gap.
    public mutating func heartbeatSeries(beats: ClosedRange<Int> = 1...300) -> HKHeartbeatSeriesSample {
        let start = date()
        var time = 0.0
        var list: [HKHeartbeatSeriesSample.Beat] = []
        for index in 0..<int(beats) {
            if index > 0 { time += double(0.3...2.0) }
            list.append(.init(timeSinceSeriesStart: time, precededByGap: int(0...9) == 0))
        }
        var fields = fields(start, 0)
        fields.end = Date(timeIntervalSinceReferenceDate: start.timeIntervalSinceReferenceDate + time)
        return try! HKHeartbeatSeriesSample.make(points: HKHeartbeatSeriesSample.points(list), fields)
    }
}
