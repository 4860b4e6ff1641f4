import Anchorage
import Foundation

/// A realistic, deterministic dataset for `anchorage demo`: twelve weeks of
/// steps from a phone and a watch that overlap, heart rate, active energy,
/// sleep, meals as food correlations, morning blood pressure, and evening
/// runs with their routes.
///
/// Each object's uuid is derived from what it is and when, so running the
/// demo again on the same day adds nothing.
struct DemoDataset {
    let days: Int
    let end: Date
    let calendar: Calendar

    init(days: Int = 84, endingBefore now: Date = Date(), zone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
        self.days = days
        self.end = calendar.startOfDay(for: now)
    }

    static let phone = source("iPhone", "com.example.demo.phone")
    static let watch = source("Apple Watch", "com.example.demo.watch")
    static let foodLog = source("Food Log", "com.example.demo.foodlog")
    static let cuff = source("BP Cuff", "com.example.demo.cuff")

    static let menu: [(name: String, kilocalories: Double, protein: Double)] = [
        ("porridge", 350, 12), ("pizza", 900, 35), ("salad", 420, 15), ("burger and fries", 1_100, 40),
        ("pasta", 750, 25), ("sushi", 600, 30), ("curry", 850, 28), ("soup", 300, 10),
    ]

    private static func source(_ name: String, _ bundle: String) -> HKSourceRevision {
        HKSourceRevision(source: HKSource(name: name, bundleIdentifier: bundle), version: "1.0")
    }

    /// What the dataset holds: its objects, oldest day first, and each
    /// run's route with the uuid of the run it belongs to.
    struct Contents {
        var objects: [HKSample] = []
        var routes: [(workout: UUID, route: HKWorkoutRoute)] = []
    }

    /// Every object of the dataset and every route, oldest day first.
    func contents() throws -> Contents {
        var contents = Contents()
        for dayIndex in (1...days).reversed() {
            let day = calendar.date(byAdding: .day, value: -dayIndex, to: end)!
            try self.day(day, into: &contents)
        }
        return contents
    }

    private func day(_ day: Date, into contents: inout Contents) throws {
        var random = SplitMix(seed: UInt64(bitPattern: Int64(day.timeIntervalSince1970)))
        var objects: [HKSample] = []
        func at(_ hour: Double) -> Date { day.addingTimeInterval(hour * 3_600) }
        let steps = HKQuantityType(.stepCount)
        let weekday = calendar.component(.weekday, from: day)  // 1 = Sunday
        let runs = [2, 4, 7].contains(weekday)  // Monday, Wednesday, Saturday

        for hour in 7..<23 {
            let count = Double(200 + random.next(700)) + (runs && hour == 18 ? 4_000 : 0)
            let start = at(Double(hour))
            objects.append(
                try HKQuantitySample.stored(
                    type: steps,
                    quantity: HKQuantity(unit: .count(), doubleValue: count),
                    start: start,
                    end: at(Double(hour) + 1),
                    uuid: uuid("steps-phone", start),
                    sourceRevision: Self.phone
                )
            )
            // The watch counts the same walking on odd hours, a little differently.
            if hour % 2 == 1 {
                objects.append(
                    try HKQuantitySample.stored(
                        type: steps,
                        quantity: HKQuantity(unit: .count(), doubleValue: (count * 1.07).rounded()),
                        start: start,
                        end: at(Double(hour) + 1),
                        uuid: uuid("steps-watch", start),
                        sourceRevision: Self.watch
                    )
                )
            }
        }
        for halfHour in 14..<46 {
            let time = at(Double(halfHour) / 2)
            let exercising = runs && halfHour / 2 == 18
            let bpm = Double(exercising ? 135 + random.next(30) : 58 + random.next(30))
            let perMinute = HKUnit.count().unitDivided(by: .minute())
            objects.append(try reading("heart", .heartRate, perMinute, bpm, at: time, from: Self.watch))
        }
        // The watch's active energy, hour by hour; a run burns most of its hour's.
        for hour in 7..<23 {
            let start = at(Double(hour))
            let kilocalories = Double(8 + random.next(25)) + (runs && hour == 18 ? 380 : 0)
            objects.append(
                try HKQuantitySample.stored(
                    type: HKQuantityType(.activeEnergyBurned),
                    quantity: HKQuantity(unit: .kilocalorie(), doubleValue: kilocalories),
                    start: start,
                    end: at(Double(hour) + 1),
                    uuid: uuid("energy", start),
                    sourceRevision: Self.watch
                )
            )
        }
        let bedtime = at(-1 + Double(random.next(60)) / 60)
        objects.append(
            try HKCategorySample.stored(
                type: HKCategoryType(.sleepAnalysis),
                value: HKCategoryValueSleepAnalysis.asleepUnspecified.rawValue,
                start: bedtime,
                end: at(6.5 + Double(random.next(90)) / 60),
                uuid: uuid("sleep", day),
                sourceRevision: Self.watch
            )
        )
        for (meal, hour) in [("breakfast", 8.0), ("lunch", 12.5), ("dinner", 19.5)] {
            let dish = meal == "breakfast" ? Self.menu[random.next(2) == 0 ? 0 : 7] : Self.menu[random.next(8)]
            objects.append(try food(dish, at: at(hour)))
        }
        objects.append(try bloodPressure(at: at(8), random: &random))
        if runs {
            let minutes = Double(30 + random.next(20))
            let start = at(18)
            let run = uuid("run", start)
            contents.routes.append((run, try route(start: start, minutes: minutes, random: &random)))
            objects.append(
                try HKWorkout.stored(
                    activityType: .running,
                    start: start,
                    end: start.addingTimeInterval(minutes * 60),
                    duration: minutes * 60,
                    totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: minutes * 11),
                    totalDistance: HKQuantity(
                        unit: .meterUnit(with: .kilo),
                        doubleValue: (minutes / 5.5 * 10).rounded() / 10
                    ),
                    uuid: run,
                    sourceRevision: Self.watch
                )
            )
        }
        contents.objects += objects
    }

    /// A run's route: laps of a park's loop (about 1.4 km), a location every
    /// 15 seconds, starting where the last run did.
    private func route(start: Date, minutes: Double, random: inout SplitMix) throws -> HKWorkoutRoute {
        let center = (latitude: 52.5145, longitude: 13.3501)
        let radius = (latitude: 0.0021, longitude: 0.0034)
        let lap = 420.0 + Double(random.next(60))  // seconds a lap
        let count = Int(minutes * 60 / 15) + 1
        let locations = (0..<count).map { index -> HKWorkoutRoute.Location in
            let seconds = Double(index) * 15
            let angle = 2 * Double.pi * seconds / lap
            // Running the loop clockwise: the bearing is -angle, in 0..<360.
            let bearing = (360 - (angle * 180 / Double.pi).truncatingRemainder(dividingBy: 360))
                .truncatingRemainder(dividingBy: 360)
            return HKWorkoutRoute.Location(
                timestamp: start.timeIntervalSinceReferenceDate + seconds,
                latitude: center.latitude + radius.latitude * sin(angle),
                longitude: center.longitude + radius.longitude * cos(angle),
                altitude: 34 + 3 * sin(angle / 2),
                horizontalAccuracy: 5,
                verticalAccuracy: 4,
                course: bearing,
                courseAccuracy: 10,
                speed: 1_400 / lap,
                speedAccuracy: 0.5
            )
        }
        let fields = SampleFields(
            start: start,
            end: start.addingTimeInterval(minutes * 60),
            uuid: uuid("route", start),
            sourceRevision: Self.watch,
            device: nil,
            metadata: .empty
        )
        return try HKWorkoutRoute.make(points: HKWorkoutRoute.points(locations), fields)
    }

    private func food(
        _ dish: (name: String, kilocalories: Double, protein: Double),
        at time: Date
    ) throws
        -> HKCorrelation
    {
        try correlation(
            "food",
            .food,
            of: [
                ("food-energy", .dietaryEnergyConsumed, .kilocalorie(), dish.kilocalories),
                ("food-protein", .dietaryProtein, .gram(), dish.protein),
            ],
            at: time,
            from: Self.foodLog,
            metadata: [HKMetadataKeyFoodType: .string(dish.name)]
        )
    }

    private func bloodPressure(at time: Date, random: inout SplitMix) throws -> HKCorrelation {
        let mmHg = HKUnit.millimeterOfMercury()
        return try correlation(
            "bp",
            .bloodPressure,
            of: [
                ("bp-systolic", .bloodPressureSystolic, mmHg, Double(112 + random.next(20))),
                ("bp-diastolic", .bloodPressureDiastolic, mmHg, Double(70 + random.next(14))),
            ],
            at: time,
            from: Self.cuff
        )
    }

    /// A quantity sample at one instant, its uuid derived from `kind` and
    /// the time.
    private func reading(
        _ kind: String,
        _ type: HKQuantityTypeIdentifier,
        _ unit: HKUnit,
        _ value: Double,
        at time: Date,
        from source: HKSourceRevision
    ) throws -> HKQuantitySample {
        try HKQuantitySample.stored(
            type: HKQuantityType(type),
            quantity: HKQuantity(unit: unit, doubleValue: value),
            start: time,
            end: time,
            uuid: uuid(kind, time),
            sourceRevision: source
        )
    }

    /// A correlation at one instant of a reading for each of `parts`, all
    /// from `source`; each uuid is derived from its kind and the time.
    private func correlation(
        _ kind: String,
        _ type: HKCorrelationTypeIdentifier,
        of parts: [(kind: String, type: HKQuantityTypeIdentifier, unit: HKUnit, value: Double)],
        at time: Date,
        from source: HKSourceRevision,
        metadata: [String: HKMetadataValue] = [:]
    ) throws -> HKCorrelation {
        try .stored(
            type: HKCorrelationType(type),
            start: time,
            end: time,
            objects: Set(try parts.map { try reading($0.kind, $0.type, $0.unit, $0.value, at: time, from: source) }),
            uuid: uuid(kind, time),
            sourceRevision: source,
            metadata: metadata
        )
    }

    /// A version-8 uuid derived from what an object is and when.
    private func uuid(_ kind: String, _ time: Date) -> UUID {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(kind.utf8) + withUnsafeBytes(of: time.timeIntervalSince1970.bitPattern, Array.init) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        var generator = SplitMix(seed: hash)
        var bytes = withUnsafeBytes(of: (generator.nextWord(), generator.nextWord())) { Array($0) }
        bytes[6] = (bytes[6] & 0x0f) | 0x80
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func nextWord() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        Int(nextWord() % UInt64(bound))
    }
}
