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
    enum Kind: UInt8 {
        case quantitySample = 1
        case categorySample = 2
        case correlation = 3
        case workout = 4
    }

    /// The bytes of `object`.
    public static func encode(_ object: HKObject) -> [UInt8] {
        var writer = PayloadWriter()
        write(object, into: &writer)
        return writer.bytes
    }

    /// Decodes one payload.
    public static func decode(_ bytes: [UInt8]) throws(HKError) -> HKObject {
        var decoder = PayloadDecoder()
        return try decoder.decode(bytes)
    }

    static func write(_ object: HKObject, into writer: inout PayloadWriter) {
        writer.byte(formatVersion)
        switch object {
        case is HKQuantitySample: writer.byte(Kind.quantitySample.rawValue)
        case is HKCategorySample: writer.byte(Kind.categorySample.rawValue)
        case is HKCorrelation: writer.byte(Kind.correlation.rawValue)
        case is HKWorkout: writer.byte(Kind.workout.rawValue)
        default: preconditionFailure("only samples have payloads")
        }
        writer.uuid(object.uuid)
        var flags: UInt8 = 0
        if object.device != nil { flags |= 1 }
        if !object.typedMetadata.isEmpty { flags |= 2 }
        writer.byte(flags)
        writer.lengthPrefixed { block in writeRevision(object.sourceRevision, into: &block) }
        if let device = object.device { writeDevice(device, into: &writer) }
        if !object.typedMetadata.isEmpty { writeMetadata(object.typedMetadata, into: &writer) }
        let sample = object as! HKSample
        writer.varint(UInt64(sample.sampleType.kindCode))
        writer.date(sample.startDate)
        writer.date(sample.endDate)
        switch sample {
        case let quantitySample as HKQuantitySample:
            writer.double(quantitySample.quantity.value)
            writer.string(quantitySample.quantity.unit.unitString)
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
        default:
            preconditionFailure("only samples have payloads")
        }
    }

    static func writeRevision(_ revision: HKSourceRevision, into writer: inout PayloadWriter) {
        writer.string(revision.source.name)
        writer.string(revision.source.bundleIdentifier)
        var flags: UInt8 = 0
        if revision.version != nil { flags |= 1 }
        if revision.productType != nil { flags |= 2 }
        writer.byte(flags)
        if let version = revision.version { writer.string(version) }
        if let productType = revision.productType { writer.string(productType) }
        let os = revision.operatingSystemVersion
        writer.signed(Int64(os.majorVersion))
        writer.signed(Int64(os.minorVersion))
        writer.signed(Int64(os.patchVersion))
    }

    static func writeDevice(_ device: HKDevice, into writer: inout PayloadWriter) {
        let properties = device.properties
        var mask: UInt8 = 0
        for (index, property) in properties.enumerated() where property != nil { mask |= 1 << index }
        writer.byte(mask)
        for property in properties { if let property { writer.string(property) } }
    }

    static func writeMetadata(_ metadata: HKMetadata, into writer: inout PayloadWriter) {
        writer.varint(UInt64(metadata.values.count))
        for key in metadata.values.keys.sorted() {
            writer.string(key)
            writeMetadataValue(metadata.values[key]!, into: &writer)
        }
    }

    static func writeMetadataValue(_ value: HKMetadataValue, into writer: inout PayloadWriter) {
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

    static func writeWorkout(_ workout: HKWorkout, into writer: inout PayloadWriter) {
        writer.varint(UInt64(workout.workoutActivityType.rawValue))
        writer.double(workout.duration)
        let totals = [
            workout.totalEnergyBurned, workout.totalDistance, workout.totalSwimmingStrokeCount,
            workout.totalFlightsClimbed,
        ]
        var mask: UInt8 = 0
        for (index, total) in totals.enumerated() where total != nil { mask |= 1 << index }
        writer.byte(mask)
        for total in totals {
            guard let total else { continue }
            writer.double(total.value)
            writer.string(total.unit.unitString)
        }
        let events = workout.workoutEvents ?? []
        writer.varint(UInt64(events.count))
        for event in events {
            writer.byte(UInt8(event.type.rawValue))
            writer.date(event.dateInterval.start)
            writer.date(event.dateInterval.end)
            writeMetadata(event.typedMetadata, into: &writer)
        }
    }
}
