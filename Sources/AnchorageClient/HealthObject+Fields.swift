extension HealthObject {
    /// The fields every object has (`value1` of the kind's value): its
    /// uuid, type identifier, dates, source revision, device and metadata.
    ///
    /// ```swift
    /// let sources = Set(page.added.compactMap { $0.fields.sourceRevision?.source.bundleIdentifier })
    /// ```
    public var fields: HealthObjectFields {
        switch self {
        case .audiogram(let object): object.value1
        case .categorySample(let object): object.value1
        case .clinicalRecord(let object): object.value1
        case .correlation(let object): object.value1
        case .electrocardiogram(let object): object.value1
        case .heartbeatSeries(let object): object.value1
        case .medicationDoseEvent(let object): object.value1
        case .quantitySample(let object): object.value1
        case .scoredAssessment(let object): object.value1
        case .stateOfMind(let object): object.value1
        case .visionPrescription(let object): object.value1
        case .workout(let object): object.value1
        case .workoutRoute(let object): object.value1
        }
    }

    /// The object's uuid, as the node writes it (upper-case).
    public var uuid: String { fields.uuid }

    /// The HealthKit type identifier (`HKQuantityTypeIdentifierStepCount`).
    public var typeIdentifier: String { fields._type }

    /// The object's `kind`, as the JSON names it (`quantitySample`, `workout`…).
    public var kind: String {
        switch self {
        case .audiogram(let object): object.value2.kind.rawValue
        case .categorySample(let object): object.value2.kind.rawValue
        case .clinicalRecord(let object): object.value2.kind.rawValue
        case .correlation(let object): object.value2.kind.rawValue
        case .electrocardiogram(let object): object.value2.kind.rawValue
        case .heartbeatSeries(let object): object.value2.kind.rawValue
        case .medicationDoseEvent(let object): object.value2.kind.rawValue
        case .quantitySample(let object): object.value2.kind.rawValue
        case .scoredAssessment(let object): object.value2.kind.rawValue
        case .stateOfMind(let object): object.value2.kind.rawValue
        case .visionPrescription(let object): object.value2.kind.rawValue
        case .workout(let object): object.value2.kind.rawValue
        case .workoutRoute(let object): object.value2.kind.rawValue
        }
    }
}
