/// The binary form of objects stored in the log (docs/payload-format.md):
/// compact, versioned, exact to the bit for every field.
///
/// ```swift
/// let bytes = PayloadCodec.encode(sample)
/// let back = try PayloadCodec.decode(bytes)     // == sample, field for field
/// ```
///
/// Decoding treats its input as untrusted: it never stops the program and
/// never allocates more than the input's size justifies; anything wrong is
/// an ``HKError`` naming the rule (`PAYLOAD-1` unknown version, `PAYLOAD-2`
/// malformed bytes, `PAYLOAD-3` a limit exceeded, or an object rule such as
/// `OBJ-7`). To decode many payloads use a ``PayloadDecoder``, which
/// remembers the last source revision and unit it saw.
public enum PayloadCodec {
    /// The version of the format this library writes.
    public static let formatVersion: UInt8 = 1

    /// Object kinds in the payload header.
    package enum Kind: UInt8 {
        case quantitySample = 1
        case categorySample = 2
        case correlation = 3
        case workout = 4
        case workoutRoute = 5
        case heartbeatSeries = 6
        case electrocardiogram = 7
        case audiogram = 8
        case stateOfMind = 9
        case scoredAssessment = 10
        case visionPrescription = 11
        case clinicalRecord = 12
        case quantitySeries = 13
        case medicationDoseEvent = 14

        /// Whether objects of the kind may be a correlation's members (OBJ-18).
        var isMemberKind: Bool { self == .quantitySample || self == .categorySample || self == .quantitySeries }
    }

    /// The bytes of `object`.
    public static func encode(_ object: HKObject) -> [UInt8] {
        if let sample = object as? HKQuantitySample, sample.series == nil, sample.device == nil,
            sample.typedMetadata.isEmpty
        {
            // The common case, written straight into an array of its exact size.
            let size = plainQuantitySampleSize(sample)
            return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                var writer = PayloadWriter(into: UnsafeMutableRawBufferPointer(buffer))
                writePlainQuantitySample(sample, into: &writer)
                initialized = writer.count
            }
        }
        return encodeGeneral(object)
    }

    /// The bytes of `object` through the general writer (every kind).
    package static func encodeGeneral(_ object: HKObject) -> [UInt8] {
        // Room for a series' points at once, so they are copied once.
        let points = (object as? HKSample)?.seriesPoints?.bytes.count ?? 0
        var writer = PayloadWriter(capacity: 64 + object.sourceRevision.payloadBlock.count + points)
        write(object, into: &writer)
        return writer.finish()
    }

    /// Writes a quantity sample without device or metadata: the same bytes
    /// as ``write(_:into:)``, without its type tests.
    @inline(__always)
    private static func writePlainQuantitySample(_ sample: HKQuantitySample, into writer: inout PayloadWriter) {
        writer.byte(formatVersion)
        writer.byte(Kind.quantitySample.rawValue)
        writer.uuid(sample.uuid)
        writer.byte(0)
        writer.block(sample.sourceRevision.payloadBlock)
        writer.varint(UInt64(sample.sampleType.kindCode))
        writer.date(sample.startDate)
        writer.date(sample.endDate)
        writer.double(sample.quantity.value)
        writer.block(sample.quantity.unit.storage.utf8)
    }

    /// The payload size of a quantity sample without device or metadata.
    private static func plainQuantitySampleSize(_ sample: HKQuantitySample) -> Int {
        let revision = sample.sourceRevision.payloadBlock.count
        let unit = sample.quantity.unit.storage.utf8.count
        return 2 + 16 + 1 + PayloadWriter.varintSize(UInt64(revision)) + revision
            + PayloadWriter.varintSize(UInt64(sample.sampleType.kindCode)) + 16 + 8
            + PayloadWriter.varintSize(UInt64(unit)) + unit
    }

    /// Decodes one payload.
    public static func decode(_ bytes: [UInt8]) throws(HKError) -> HKObject {
        var decoder = PayloadDecoder()
        return try decoder.decode(bytes)
    }

    package static func write(_ object: HKObject, into writer: inout PayloadWriter) {
        writer.byte(formatVersion)
        switch object {
        case let sample as HKQuantitySample:
            writer.byte(sample.series == nil ? Kind.quantitySample.rawValue : Kind.quantitySeries.rawValue)
        case is HKCategorySample: writer.byte(Kind.categorySample.rawValue)
        case is HKCorrelation: writer.byte(Kind.correlation.rawValue)
        case is HKWorkout: writer.byte(Kind.workout.rawValue)
        case is HKWorkoutRoute: writer.byte(Kind.workoutRoute.rawValue)
        case is HKHeartbeatSeriesSample: writer.byte(Kind.heartbeatSeries.rawValue)
        case is HKElectrocardiogram: writer.byte(Kind.electrocardiogram.rawValue)
        case is HKAudiogramSample: writer.byte(Kind.audiogram.rawValue)
        case is HKStateOfMind: writer.byte(Kind.stateOfMind.rawValue)
        case is HKScoredAssessment: writer.byte(Kind.scoredAssessment.rawValue)
        case is HKVisionPrescription: writer.byte(Kind.visionPrescription.rawValue)
        case is HKClinicalRecord: writer.byte(Kind.clinicalRecord.rawValue)
        case is HKMedicationDoseEvent: writer.byte(Kind.medicationDoseEvent.rawValue)
        default: preconditionFailure("only samples have payloads")
        }
        writer.uuid(object.uuid)
        var flags: UInt8 = 0
        if object.device != nil { flags |= 1 }
        if !object.typedMetadata.isEmpty { flags |= 2 }
        writer.byte(flags)
        writer.block(object.sourceRevision.payloadBlock)
        if let device = object.device { writeDevice(device, into: &writer) }
        if !object.typedMetadata.isEmpty { writeMetadata(object.typedMetadata, into: &writer) }
        let sample = object as! HKSample
        writer.varint(UInt64(sample.sampleType.kindCode))
        writer.date(sample.startDate)
        writer.date(sample.endDate)
        switch sample {
        case let quantitySample as HKQuantitySample:
            writer.double(quantitySample.quantity.value)
            writer.block(quantitySample.quantity.unit.storage.utf8)
            if let series = quantitySample.series { writeQuantitySeries(series, into: &writer) }
        case let categorySample as HKCategorySample:
            writer.signed(Int64(categorySample.value))
        case let correlation as HKCorrelation:
            let members = correlation.objects.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            writer.varint(UInt64(members.count))
            for member in members {
                writer.lengthPrefixed { block in write(member, into: &block) }
            }
        case let workout as HKWorkout:
            writeWorkout(workout, into: &writer)
        case let series as HKSeriesSample:
            writeSeries(series, into: &writer)
        case let ecg as HKElectrocardiogram:
            writeElectrocardiogram(ecg, into: &writer)
        case let audiogram as HKAudiogramSample:
            writeAudiogram(audiogram, into: &writer)
        case let mind as HKStateOfMind:
            writer.varint(UInt64(mind.kind.rawValue))
            writer.double(mind.valence)
            writer.varint(UInt64(mind.labels.count))
            for label in mind.labels { writer.varint(UInt64(label.rawValue)) }
            writer.varint(UInt64(mind.associations.count))
            for association in mind.associations { writer.varint(UInt64(association.rawValue)) }
        case let assessment as HKScoredAssessment:
            writer.varint(UInt64(assessment.answerValues.count))
            for answer in assessment.answerValues { writer.varint(UInt64(answer)) }
        case let prescription as HKVisionPrescription:
            writeVision(prescription, into: &writer)
        case let record as HKClinicalRecord:
            writeClinical(record, into: &writer)
        case let event as HKMedicationDoseEvent:
            writeDoseEvent(event, into: &writer)
        default:
            preconditionFailure("only samples have payloads")
        }
    }

    /// A quantity series after its quantity (kind 13): the count, the
    /// minimum and maximum, the most recent quantity's start, end and value,
    /// then the quantities as they are in memory (SERIES-6).
    package static func writeQuantitySeries(_ series: QuantitySeries, into writer: inout PayloadWriter) {
        guard let points = series.points else {
            preconditionFailure("a quantity series read without its quantities has no payload")
        }
        writer.varint(UInt64(series.count))
        writer.double(series.minimum)
        writer.double(series.maximum)
        writer.double(series.mostRecent.start)
        writer.double(series.mostRecent.end)
        writer.double(series.mostRecent.value)
        points.bytes.withUnsafeBytes { writer.raw($0) }
    }

    /// A series sample's points after its common fields (kinds 5 and 6):
    /// their count, then the records as they are in memory. A sample read
    /// without its points cannot be written (the store refuses to save it,
    /// SERIES-3).
    package static func writeSeries(_ series: HKSeriesSample, into writer: inout PayloadWriter) {
        guard let points = series.points else {
            preconditionFailure("a series sample read without its points has no payload")
        }
        writer.varint(UInt64(points.count))
        points.bytes.withUnsafeBytes { writer.raw($0) }
    }

    /// An electrocardiogram after its common fields (kind 7): classification,
    /// symptoms status, which of heart rate and frequency follow, the leads,
    /// then the count and the voltages as they are in memory.
    package static func writeElectrocardiogram(_ ecg: HKElectrocardiogram, into writer: inout PayloadWriter) {
        guard let points = ecg.points else {
            preconditionFailure("an electrocardiogram read without its voltages has no payload")
        }
        let recording = ecg.recording
        writer.varint(UInt64(recording.classification.rawValue))
        writer.varint(UInt64(recording.symptomsStatus.rawValue))
        writer.byte((recording.averageHeartRate == nil ? 0 : 1) | (recording.samplingFrequency == nil ? 0 : 2))
        if let rate = recording.averageHeartRate { writer.double(rate) }
        if let frequency = recording.samplingFrequency { writer.double(frequency) }
        writer.varint(UInt64(recording.leads.count))
        for lead in recording.leads { writer.varint(UInt64(lead.rawValue)) }
        writer.varint(UInt64(points.count))
        points.bytes.withUnsafeBytes { writer.raw($0) }
    }

    /// The bytes of a source revision's block (without its length).
    package static func revisionBlock(
        name: String,
        bundleIdentifier: String,
        version: String?,
        productType: String?,
        operatingSystemVersion os: OperatingSystemVersion
    ) -> [UInt8] {
        var writer = PayloadWriter(capacity: 64)
        writer.string(name)
        writer.string(bundleIdentifier)
        var flags: UInt8 = 0
        if version != nil { flags |= 1 }
        if productType != nil { flags |= 2 }
        writer.byte(flags)
        if let version { writer.string(version) }
        if let productType { writer.string(productType) }
        writer.signed(Int64(os.majorVersion))
        writer.signed(Int64(os.minorVersion))
        writer.signed(Int64(os.patchVersion))
        return writer.finish()
    }

    package static func writeDevice(_ device: HKDevice, into writer: inout PayloadWriter) {
        let properties = device.properties
        var mask: UInt8 = 0
        for (index, property) in properties.enumerated() where property != nil { mask |= 1 << index }
        writer.byte(mask)
        for property in properties { if let property { writer.string(property) } }
    }

    package static func writeMetadata(_ metadata: HKMetadata, into writer: inout PayloadWriter) {
        writer.varint(UInt64(metadata.values.count))
        for key in metadata.values.keys.sorted() {
            writer.string(key)
            writeMetadataValue(metadata.values[key]!, into: &writer)
        }
    }

    package static func writeMetadataValue(_ value: HKMetadataValue, into writer: inout PayloadWriter) {
        switch value {
        case .string(let text):
            writer.byte(1)
            writer.string(text)
        case .integer(let number):
            writer.byte(2)
            writer.signed(number)
        case .double(let number):
            writer.byte(3)
            writer.double(number)
        case .bool(let flag):
            writer.byte(4)
            writer.byte(flag ? 1 : 0)
        case .date(let date):
            writer.byte(5)
            writer.date(date)
        case .quantity(let quantity):
            writer.byte(6)
            writer.double(quantity.value)
            writer.string(quantity.unit.unitString)
        }
    }
}
