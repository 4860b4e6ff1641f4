/// An element or attribute name of the export, as a small number.
///
/// The names the importer reads have fixed numbers (the static members);
/// any other name the file uses gets the next free number when first seen,
/// and keeps its text in the reader's ``NameTable``.
struct ExportName: RawRepresentable, Hashable, Sendable {
    var rawValue: UInt16

    // Elements.
    static let healthData = ExportName(rawValue: 0)
    static let exportDate = ExportName(rawValue: 1)
    static let me = ExportName(rawValue: 2)
    static let record = ExportName(rawValue: 3)
    static let correlation = ExportName(rawValue: 4)
    static let workout = ExportName(rawValue: 5)
    static let activitySummary = ExportName(rawValue: 6)
    static let metadataEntry = ExportName(rawValue: 7)
    static let workoutEvent = ExportName(rawValue: 8)
    static let workoutStatistics = ExportName(rawValue: 9)
    static let workoutActivity = ExportName(rawValue: 10)
    static let workoutRoute = ExportName(rawValue: 11)
    static let heartRateVariabilityMetadataList = ExportName(rawValue: 12)
    static let instantaneousBeatsPerMinute = ExportName(rawValue: 13)
    // Attributes.
    static let type = ExportName(rawValue: 14)
    static let unit = ExportName(rawValue: 15)
    static let value = ExportName(rawValue: 16)
    static let sourceName = ExportName(rawValue: 17)
    static let sourceVersion = ExportName(rawValue: 18)
    static let device = ExportName(rawValue: 19)
    static let creationDate = ExportName(rawValue: 20)
    static let startDate = ExportName(rawValue: 21)
    static let endDate = ExportName(rawValue: 22)
    static let key = ExportName(rawValue: 23)
    static let workoutActivityType = ExportName(rawValue: 24)
    static let duration = ExportName(rawValue: 25)
    static let durationUnit = ExportName(rawValue: 26)
    static let totalDistance = ExportName(rawValue: 27)
    static let totalDistanceUnit = ExportName(rawValue: 28)
    static let totalEnergyBurned = ExportName(rawValue: 29)
    static let totalEnergyBurnedUnit = ExportName(rawValue: 30)
    static let date = ExportName(rawValue: 31)
    static let sum = ExportName(rawValue: 32)
    static let average = ExportName(rawValue: 33)
    static let minimum = ExportName(rawValue: 34)
    static let maximum = ExportName(rawValue: 35)
    static let dateComponents = ExportName(rawValue: 36)
    static let activeEnergyBurned = ExportName(rawValue: 37)
    static let activeEnergyBurnedGoal = ExportName(rawValue: 38)
    static let activeEnergyBurnedUnit = ExportName(rawValue: 39)
    static let appleMoveTime = ExportName(rawValue: 40)
    static let appleMoveTimeGoal = ExportName(rawValue: 41)
    static let appleExerciseTime = ExportName(rawValue: 42)
    static let appleExerciseTimeGoal = ExportName(rawValue: 43)
    static let appleStandHours = ExportName(rawValue: 44)
    static let appleStandHoursGoal = ExportName(rawValue: 45)
    static let bpm = ExportName(rawValue: 46)
    static let time = ExportName(rawValue: 47)
    static let uuid = ExportName(rawValue: 48)
    // The oldest exports' (iOS 8 and 9) attributes.
    static let source = ExportName(rawValue: 49)
    static let recordCount = ExportName(rawValue: 50)
    static let wasUserEntered = ExportName(rawValue: 51)
    // Routes.
    static let location = ExportName(rawValue: 52)
    static let fileReference = ExportName(rawValue: 53)
    static let path = ExportName(rawValue: 54)
    static let latitude = ExportName(rawValue: 55)
    static let longitude = ExportName(rawValue: 56)
    static let altitude = ExportName(rawValue: 57)
    static let horizontalAccuracy = ExportName(rawValue: 58)
    static let verticalAccuracy = ExportName(rawValue: 59)
    static let course = ExportName(rawValue: 60)
    static let speed = ExportName(rawValue: 61)
    // Audiograms.
    static let audiogram = ExportName(rawValue: 62)
    static let sensitivityPoint = ExportName(rawValue: 63)
    static let frequencyValue = ExportName(rawValue: 64)
    static let frequencyUnit = ExportName(rawValue: 65)
    static let leftEarValue = ExportName(rawValue: 66)
    static let leftEarUnit = ExportName(rawValue: 67)
    static let rightEarValue = ExportName(rawValue: 68)
    static let rightEarUnit = ExportName(rawValue: 69)
    // Vision prescriptions.
    static let visionPrescription = ExportName(rawValue: 70)
    static let rightEye = ExportName(rawValue: 71)
    static let leftEye = ExportName(rawValue: 72)
    static let dateIssued = ExportName(rawValue: 73)
    static let expirationDate = ExportName(rawValue: 74)
    static let brand = ExportName(rawValue: 75)
    // Clinical records.
    static let clinicalRecord = ExportName(rawValue: 76)
    static let identifier = ExportName(rawValue: 77)
    static let sourceURL = ExportName(rawValue: 78)
    static let fhirVersion = ExportName(rawValue: 79)
    static let receivedDate = ExportName(rawValue: 80)
    static let resourceFilePath = ExportName(rawValue: 81)
    // The oldest exports' statistics of a discrete record (`min`, `max`, with `average`).
    static let min = ExportName(rawValue: 82)
    static let max = ExportName(rawValue: 83)

    /// The fixed names' texts, in the order of their numbers.
    static let known: [String] = [
        "HealthData", "ExportDate", "Me", "Record", "Correlation", "Workout", "ActivitySummary", "MetadataEntry",
        "WorkoutEvent", "WorkoutStatistics", "WorkoutActivity", "WorkoutRoute", "HeartRateVariabilityMetadataList",
        "InstantaneousBeatsPerMinute", "type", "unit", "value", "sourceName", "sourceVersion", "device",
        "creationDate", "startDate", "endDate", "key", "workoutActivityType", "duration", "durationUnit",
        "totalDistance", "totalDistanceUnit", "totalEnergyBurned", "totalEnergyBurnedUnit", "date", "sum", "average",
        "minimum", "maximum", "dateComponents", "activeEnergyBurned", "activeEnergyBurnedGoal",
        "activeEnergyBurnedUnit", "appleMoveTime", "appleMoveTimeGoal", "appleExerciseTime", "appleExerciseTimeGoal",
        "appleStandHours", "appleStandHoursGoal", "bpm", "time", "uuid", "source", "recordCount",
        "HKWasUserEntered", "Location", "FileReference", "path", "latitude", "longitude", "altitude",
        "horizontalAccuracy", "verticalAccuracy", "course", "speed", "Audiogram", "SensitivityPoint", "frequencyValue",
        "frequencyUnit", "leftEarValue", "leftEarUnit", "rightEarValue", "rightEarUnit", "VisionPrescription",
        "RightEye", "LeftEye", "dateIssued", "expirationDate", "brand", "ClinicalRecord", "identifier", "sourceURL",
        "fhirVersion", "receivedDate", "resourceFilePath", "min", "max",
    ]
}

/// The texts of the names a reader has met: the fixed ones, then the
/// others in the order they appeared. Handed to consumers with each batch.
struct NameTable: Sendable {
    private(set) var texts: [String] = ExportName.known
    private var numbers: [String: ExportName] = Dictionary(
        uniqueKeysWithValues: ExportName.known.enumerated().map { ($1, ExportName(rawValue: UInt16($0))) }
    )
    /// Each name's place in byte order of the texts, for canonical hashing.
    private(set) var order: [UInt16] = []
    /// The names in byte order of their texts: `order`'s inverse.
    private var sorted: [ExportName] = []

    init() {
        for index in texts.indices { insertInOrder(ExportName(rawValue: UInt16(index))) }
    }

    /// How many names there are.
    var count: Int { texts.count }

    /// The text of `name`.
    subscript(name: ExportName) -> String { texts[Int(name.rawValue)] }

    /// The number of `text`, adding it if new.
    mutating func number(of text: String) -> ExportName {
        if let known = numbers[text] { return known }
        let name = ExportName(rawValue: UInt16(texts.count))
        texts.append(text)
        numbers[text] = name
        insertInOrder(name)
        return name
    }

    /// Places a new name in `sorted` by binary search and renumbers the
    /// places after it: linear in the names, once per new name.
    private mutating func insertInOrder(_ name: ExportName) {
        let text = texts[Int(name.rawValue)].utf8
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if texts[Int(sorted[middle].rawValue)].utf8.lexicographicallyPrecedes(text) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        sorted.insert(name, at: low)
        order.append(0)
        for place in low..<sorted.count { order[Int(sorted[place].rawValue)] = UInt16(place) }
    }
}
