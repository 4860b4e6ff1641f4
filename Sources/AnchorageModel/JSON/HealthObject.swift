/// Any health object in its JSON form (docs/json-format.md): the form the
/// HTTP API and the command line read and write.
///
/// ```swift
/// let json = try JSONEncoder().encode(HealthObject(sample))
/// let back = try JSONDecoder().decode(HealthObject.self, from: json).object
/// ```
///
/// Decoding checks every rule the throwing initializers check; bad input is
/// a thrown ``HKError`` or `DecodingError`, never a stopped program.
public struct HealthObject: Codable, Sendable {
    /// The object.
    public let object: HKObject

    /// Wraps an object.
    public init(_ object: HKObject) {
        self.object = object
    }

    /// The object kinds the JSON names.
    package enum Kind: String, Codable, CaseIterable {
        case quantitySample, categorySample, correlation, workout, workoutRoute, heartbeatSeries, electrocardiogram
        case audiogram, stateOfMind, scoredAssessment, visionPrescription, clinicalRecord, medicationDoseEvent

        /// Whether objects of the kind may be a correlation's members (OBJ-18).
        var isMemberKind: Bool { self == .quantitySample || self == .categorySample }

        package init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let kind = Kind(rawValue: text) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "'\(text.prefix(40))' is not a kind of object; use "
                            + Kind.allCases.map(\.rawValue).joined(separator: ", ")
                    )
                )
            }
            self = kind
        }
    }

    package enum CodingKeys: String, CodingKey {
        case kind, uuid, type, startDate, endDate, quantity, value, objects
        case workoutActivityType, duration, workoutEvents
        case totalEnergyBurned, totalDistance, totalSwimmingStrokeCount, totalFlightsClimbed, statistics
        case workoutActivities
        case count, locations, heartbeats, quantities
        case classification, symptomsStatus, averageHeartRate, samplingFrequency, voltages
        case sensitivityPoints
        case stateOfMindKind, valence, labels, associations, answers, score
        case prescriptionType, form, expirationDate, rightEye, leftEye, brand
        case displayName, fhirResource
        case medicationConcept, scheduleType, scheduledDate, scheduledDoseQuantity, doseQuantity, logStatus, unit
        case sourceRevision, device, metadata
    }

    /// How deep correlations may nest in input (they may not nest at all;
    /// this bounds the work before that rule is checked).
    package static let maximumMembers = 10_000

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(object.uuid, forKey: .uuid)
        try container.encode(object.sourceRevision, forKey: .sourceRevision)
        try container.encodeIfPresent(object.device, forKey: .device)
        if !object.typedMetadata.isEmpty {
            try container.encode(object.typedMetadata.values, forKey: .metadata)
        }
        guard let sample = object as? HKSample else { return }
        try container.encode(sample.sampleType.identifier, forKey: .type)
        try container.encode(ISO8601.format(sample.startDate), forKey: .startDate)
        try container.encode(ISO8601.format(sample.endDate), forKey: .endDate)
        switch sample {
        case let quantitySample as HKQuantitySample:
            try container.encode(Kind.quantitySample, forKey: .kind)
            try container.encode(quantitySample.quantity, forKey: .quantity)
            try Self.encodeQuantitySeries(quantitySample, into: &container)
        case let categorySample as HKCategorySample:
            try container.encode(Kind.categorySample, forKey: .kind)
            try container.encode(categorySample.value, forKey: .value)
        case let correlation as HKCorrelation:
            try container.encode(Kind.correlation, forKey: .kind)
            let members = correlation.objects.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            try container.encode(members.map(HealthObject.init), forKey: .objects)
        case let workout as HKWorkout:
            try container.encode(Kind.workout, forKey: .kind)
            try container.encode(workout.workoutActivityType.rawValue, forKey: .workoutActivityType)
            try container.encode(workout.duration, forKey: .duration)
            try container.encodeIfPresent(workout.workoutEvents?.map(EventJSON.init), forKey: .workoutEvents)
            try container.encodeIfPresent(workout.totalEnergyBurned, forKey: .totalEnergyBurned)
            try container.encodeIfPresent(workout.totalDistance, forKey: .totalDistance)
            try container.encodeIfPresent(workout.totalSwimmingStrokeCount, forKey: .totalSwimmingStrokeCount)
            try container.encodeIfPresent(workout.totalFlightsClimbed, forKey: .totalFlightsClimbed)
            if !workout.recordedStatistics.isEmpty {
                try container.encode(workout.recordedStatistics.map(StatisticsJSON.init), forKey: .statistics)
            }
            if !workout.workoutActivities.isEmpty {
                try container.encode(workout.workoutActivities.map(ActivityJSON.init), forKey: .workoutActivities)
            }
        case let route as HKWorkoutRoute:
            try container.encode(Kind.workoutRoute, forKey: .kind)
            try Self.encodeSeries(route, into: &container)
        case let series as HKHeartbeatSeriesSample:
            try container.encode(Kind.heartbeatSeries, forKey: .kind)
            try Self.encodeSeries(series, into: &container)
        case let ecg as HKElectrocardiogram:
            try container.encode(Kind.electrocardiogram, forKey: .kind)
            try Self.encodeElectrocardiogram(ecg, into: &container)
        case let audiogram as HKAudiogramSample:
            try container.encode(Kind.audiogram, forKey: .kind)
            try container.encode(audiogram.sensitivityPoints.map(SensitivityPointJSON.init), forKey: .sensitivityPoints)
        case let mind as HKStateOfMind:
            try container.encode(Kind.stateOfMind, forKey: .kind)
            try container.encode(mind.kind.rawValue, forKey: .stateOfMindKind)
            try container.encode(mind.valence, forKey: .valence)
            try container.encode(mind.labels.map(\.rawValue), forKey: .labels)
            try container.encode(mind.associations.map(\.rawValue), forKey: .associations)
        case let record as HKClinicalRecord:
            try container.encode(Kind.clinicalRecord, forKey: .kind)
            try container.encode(record.displayName, forKey: .displayName)
            try container.encodeIfPresent(record.fhirResource.map(FHIRResourceJSON.init), forKey: .fhirResource)
        case let event as HKMedicationDoseEvent:
            try container.encode(Kind.medicationDoseEvent, forKey: .kind)
            try Self.encodeDoseEvent(event, into: &container)
        case let prescription as HKVisionPrescription:
            try container.encode(Kind.visionPrescription, forKey: .kind)
            try Self.encodeVision(prescription, into: &container)
        case let assessment as HKScoredAssessment:
            try container.encode(Kind.scoredAssessment, forKey: .kind)
            try container.encode(assessment.answerValues, forKey: .answers)
            try container.encode(assessment.score, forKey: .score)
        default:
            break
        }
    }

    public init(from decoder: any Decoder) throws {
        object = try Self.decode(decoder, asMember: false)
    }

    /// Decodes an object; a correlation's member may not itself be a
    /// correlation or workout (OBJ-18), checked before going deeper.
    package static func decode(_ decoder: any Decoder, asMember: Bool) throws -> HKObject {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(Kind.self, forKey: .kind)
        if asMember && !kind.isMemberKind {
            throw HKError.invalid("OBJ-18", "a correlation may contain only quantity and category samples")
        }
        let uuid = try container.decode(UUID.self, forKey: .uuid)
        let revision = try container.decodeIfPresent(HKSourceRevision.self, forKey: .sourceRevision) ?? .local
        let device = try container.decodeIfPresent(HKDevice.self, forKey: .device)
        let metadata = try container.decodeIfPresent([String: HKMetadataValue].self, forKey: .metadata) ?? [:]
        let identifier = try container.decode(String.self, forKey: .type)
        let start = try JSONDates.decode(container, .startDate)
        let end = try JSONDates.decode(container, .endDate)
        // Given in full by a service: the door importers and replicas use.
        let fields = try SampleFields.given(start, end, uuid, revision, device, metadata)
        switch kind {
        case .quantitySample:
            guard let type = HKObjectType.type(forIdentifier: identifier) as? HKQuantityType else {
                throw HKError.invalid("OBJ-11", "'\(identifier.prefix(120))' is not a quantity type identifier")
            }
            if container.contains(.quantities) { return try Self.decodeQuantitySeries(container, type: type, fields) }
            return try HKQuantitySample.make(
                type: type,
                quantity: container.decode(HKQuantity.self, forKey: .quantity),
                fields
            )
        case .categorySample:
            guard let type = HKObjectType.type(forIdentifier: identifier) as? HKCategoryType else {
                throw HKError.invalid("OBJ-13", "'\(identifier.prefix(120))' is not a category type identifier")
            }
            return try HKCategorySample.make(type: type, value: container.decode(Int.self, forKey: .value), fields)
        case .correlation:
            guard let type = HKObjectType.type(forIdentifier: identifier) as? HKCorrelationType else {
                throw HKError.invalid("OBJ-15", "'\(identifier.prefix(120))' is not a correlation type identifier")
            }
            let members = try container.decode([MemberObject].self, forKey: .objects)
            guard members.count <= Self.maximumMembers else {
                throw HKError.invalid("OBJ-15", "a correlation may hold at most \(Self.maximumMembers) samples")
            }
            var samples = Set<HKSample>()
            for member in members {
                guard let sample = member.object as? HKSample, samples.insert(sample).inserted else {
                    throw HKError.invalid("OBJ-19", "a correlation lists the same sample twice")
                }
            }
            return try HKCorrelation.make(type: type, objects: samples, fields)
        case .workout:
            guard identifier == HKWorkoutTypeIdentifier else {
                throw HKError.invalid("OBJ-21", "a workout's type is \(HKWorkoutTypeIdentifier)")
            }
            let raw = try container.decode(UInt.self, forKey: .workoutActivityType)
            guard let activity = HKWorkoutActivityType(rawValue: raw) else {
                throw HKError.invalid("OBJ-21", "\(raw) is not a workout activity type")
            }
            let events = try container.decodeIfPresent([EventJSON].self, forKey: .workoutEvents)?.map { try $0.event() }
            let totals = HKWorkout.Totals(
                energyBurned: try container.decodeIfPresent(HKQuantity.self, forKey: .totalEnergyBurned),
                distance: try container.decodeIfPresent(HKQuantity.self, forKey: .totalDistance),
                swimmingStrokeCount: try container.decodeIfPresent(HKQuantity.self, forKey: .totalSwimmingStrokeCount),
                flightsClimbed: try container.decodeIfPresent(HKQuantity.self, forKey: .totalFlightsClimbed)
            )
            let duration =
                try container.decodeIfPresent(Double.self, forKey: .duration)
                ?? HKWorkout.activeDuration(start: fields.start, end: fields.end, events: events ?? [], explicit: nil)
            let parts = HKWorkout.Parts(
                activityType: activity,
                events: events,
                duration: duration,
                totals: totals,
                statistics: try container.decodeIfPresent([StatisticsJSON].self, forKey: .statistics)?
                    .map { try $0.statistics() } ?? [],
                activities: try container.decodeIfPresent([ActivityJSON].self, forKey: .workoutActivities)?
                    .map { try $0.activity() } ?? []
            )
            return try HKWorkout.make(parts, fields)
        case .workoutRoute:
            guard identifier == HKWorkoutRouteTypeIdentifier else {
                throw HKError.invalid("OBJ-11", "a workout route's type is \(HKWorkoutRouteTypeIdentifier)")
            }
            return try decodeRoute(container, fields)
        case .heartbeatSeries:
            guard identifier == HKDataTypeIdentifierHeartbeatSeries else {
                throw HKError.invalid("OBJ-11", "a heartbeat series' type is \(HKDataTypeIdentifierHeartbeatSeries)")
            }
            return try decodeHeartbeats(container, fields)
        case .electrocardiogram:
            guard identifier == TypeCatalog.electrocardiogram.identifier else {
                throw HKError.invalid(
                    "OBJ-11",
                    "an electrocardiogram's type is \(TypeCatalog.electrocardiogram.identifier)"
                )
            }
            return try decodeElectrocardiogram(container, fields)
        case .audiogram:
            guard identifier == TypeCatalog.audiogram.identifier else {
                throw HKError.invalid("OBJ-11", "an audiogram's type is \(TypeCatalog.audiogram.identifier)")
            }
            let points = try container.decode([SensitivityPointJSON].self, forKey: .sensitivityPoints)
            guard points.count <= HKAudiogramSample.maximumPoints else {
                throw HKError.invalid(
                    "AUD-1",
                    "an audiogram holds 1 to \(HKAudiogramSample.maximumPoints) sensitivity points"
                )
            }
            return try HKAudiogramSample.make(points: try points.map { try $0.point() }, fields)
        case .stateOfMind:
            guard identifier == TypeCatalog.stateOfMind.identifier else {
                throw HKError.invalid("OBJ-11", "a state of mind's type is \(TypeCatalog.stateOfMind.identifier)")
            }
            return try decodeStateOfMind(container, fields)
        case .scoredAssessment:
            guard let type = HKObjectType.type(forIdentifier: identifier) as? HKScoredAssessmentType else {
                throw HKError.invalid("OBJ-11", "'\(identifier.prefix(120))' is not a scored assessment type")
            }
            let answers = try container.decode([Int].self, forKey: .answers)
            guard answers.count <= 16 else { throw HKError.invalid("ASSESS-1", "an assessment has at most 16 answers") }
            return try HKScoredAssessment.make(type: type, answers: answers, fields)
        case .visionPrescription:
            guard identifier == HKVisionPrescriptionTypeIdentifier else {
                throw HKError.invalid("OBJ-11", "a vision prescription's type is \(HKVisionPrescriptionTypeIdentifier)")
            }
            return try decodeVision(container, fields)
        case .clinicalRecord:
            guard let type = HKObjectType.type(forIdentifier: identifier) as? HKClinicalType else {
                throw HKError.invalid("OBJ-11", "'\(identifier.prefix(120))' is not a clinical type identifier")
            }
            return try HKClinicalRecord.make(
                type: type,
                displayName: try container.decode(String.self, forKey: .displayName),
                resource: try container.decodeIfPresent(FHIRResourceJSON.self, forKey: .fhirResource)?.resource(),
                fields
            )
        case .medicationDoseEvent:
            guard identifier == HKMedicationDoseEventTypeIdentifierMedicationDoseEvent else {
                throw HKError.invalid(
                    "OBJ-11",
                    "a medication dose event's type is \(HKMedicationDoseEventTypeIdentifierMedicationDoseEvent)"
                )
            }
            return try decodeDoseEvent(container, fields)
        }
    }
}

/// A correlation member in JSON: a quantity or category sample.
package struct MemberObject: Decodable {
    package let object: HKObject

    package init(from decoder: any Decoder) throws {
        object = try HealthObject.decode(decoder, asMember: true)
    }
}
