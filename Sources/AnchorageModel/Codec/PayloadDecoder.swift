/// Decodes payloads, remembering the last source revision, device and unit
/// it saw so that a run of samples from one app decodes without re-parsing
/// them. Not thread-safe: use one per task.
///
/// ```swift
/// var decoder = PayloadDecoder()
/// for payload in payloads {
///     let object = try decoder.decode(payload)
/// }
/// ```
public struct PayloadDecoder {
    private var lastRevision: HKSourceRevision?
    private var lastUnit: HKUnit?
    /// The last device read, with its encoded bytes.
    private var lastDevice: (bytes: [UInt8], device: HKDevice)?
    /// The last (type code, unit) pair checked for compatibility.
    private var lastCompatibleCode: UInt32 = 0
    private var lastCompatibleUnit: HKUnit?

    /// Limits that bound the work and memory of one payload.
    package static let maximumMembers = 10_000
    package static let maximumEvents = HKWorkout.maximumEvents
    package static let maximumBlock = 1 << 20

    /// Whether series samples are decoded with their points (checked and
    /// copied) or with their count only, the points skipped: queries that
    /// list samples skip them, and read them only when a series query asks.
    package var readsSeriesPoints = true

    /// A decoder that has seen nothing yet.
    public init() {}

    /// Decodes one payload.
    ///
    /// - Throws: ``HKError``: `PAYLOAD-1` for a format version this library
    ///   does not know, `PAYLOAD-2` for malformed or truncated bytes,
    ///   `PAYLOAD-3` for a count over its limit, or the object rule the
    ///   bytes break (`OBJ-7`, `OBJ-10`, `OBJ-13`…).
    public mutating func decode(_ bytes: [UInt8]) throws(HKError) -> HKObject {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(HKError) in try decode(buffer) }
        }
        return try result.get()
    }

    /// Decodes one payload from raw bytes (for example a log entry's).
    public mutating func decode(_ buffer: UnsafeRawBufferPointer) throws(HKError) -> HKObject {
        var reader = PayloadReader(buffer)
        // Plain quantity samples (no device, no metadata) are most payloads.
        let plain = try readPlainQuantity(&reader) { plain in
            HKQuantitySample.concrete(
                type: plain.type,
                quantity: HKQuantity(unit: plain.unit, doubleValue: plain.value),
                SampleFields(
                    start: plain.start,
                    end: plain.end,
                    uuid: plain.uuid,
                    sourceRevision: plain.revision,
                    device: nil,
                    metadata: .empty
                )
            )
        }
        if let plain { return plain }
        return try readWholeObject(&reader)
    }

    /// Reads the payload from its start down the general path, which checks
    /// everything; the payload must hold nothing after its object.
    package mutating func readWholeObject(_ reader: inout PayloadReader) throws(HKError) -> HKObject {
        reader.offset = 0
        let object = try readObject(&reader, asMember: false)
        guard reader.isAtEnd else {
            throw .invalid("PAYLOAD-2", "the payload has \(reader.remaining) bytes after its object")
        }
        return object
    }

    private mutating func readObject(_ reader: inout PayloadReader, asMember: Bool) throws(HKError) -> HKObject {
        let version = try reader.byte("the format version")
        guard version == PayloadCodec.formatVersion else {
            throw .invalid(
                "PAYLOAD-1",
                "payload format version \(version) is unknown; this library reads version \(PayloadCodec.formatVersion)"
            )
        }
        guard let kind = PayloadCodec.Kind(rawValue: try reader.byte("the object kind")) else {
            throw .invalid("PAYLOAD-2", "the object kind is unknown")
        }
        if asMember && !kind.isMemberKind {
            throw .invalid("OBJ-18", "a correlation may contain only quantity and category samples")
        }
        let uuid = try reader.uuid("the uuid")
        let flags = try reader.byte("the flags")
        guard flags & ~3 == 0 else { throw .invalid("PAYLOAD-2", "the object flags \(flags) are not valid") }
        let revision = try readRevision(&reader)
        let device = flags & 1 != 0 ? try readDevice(&reader) : nil
        let metadata = flags & 2 != 0 ? try readMetadata(&reader) : .empty
        let code = try reader.varint("the type code")
        guard code <= UInt64(UInt32.max), let type = TypeCatalog.sampleType(forKindCode: UInt32(code)) else {
            throw .invalid("PAYLOAD-2", "type code \(code) is not a sample type")
        }
        let fields = SampleFields(
            start: try reader.date("the start date"),
            end: try reader.date("the end date"),
            uuid: uuid,
            sourceRevision: revision,
            device: device,
            metadata: metadata
        )
        switch kind {
        case .quantitySample:
            guard let quantityType = type as? HKQuantityType else {
                throw .invalid("PAYLOAD-2", "a quantity sample's type \(type) is not a quantity type")
            }
            let value = try reader.double("the quantity's value")
            let unit = try readUnit(&reader)
            let quantity = HKQuantity(unit: unit, doubleValue: value)
            try fields.checkInterval()
            // Type and unit were found compatible before: only the value needs checking.
            if lastCompatibleCode != quantityType.kindCode || lastCompatibleUnit?.storage !== unit.storage
                || !value.isFinite
            {
                try HKQuantitySample.checkQuantity(type: quantityType, quantity: quantity)
                lastCompatibleCode = quantityType.kindCode
                lastCompatibleUnit = unit
            }
            try HKQuantitySample.checkRequiredMetadata(type: quantityType, metadata: metadata)
            return HKQuantitySample.concrete(type: quantityType, quantity: quantity, fields)
        case .quantitySeries:
            guard let quantityType = type as? HKQuantityType else {
                throw .invalid("PAYLOAD-2", "a quantity series' type \(type) is not a quantity type")
            }
            return try readQuantitySeries(&reader, type: quantityType, fields)
        case .categorySample:
            guard let categoryType = type as? HKCategoryType else {
                throw .invalid("PAYLOAD-2", "a category sample's type \(type) is not a category type")
            }
            let value = try reader.signed("the category value")
            guard let small = Int(exactly: value) else {
                throw .invalid("OBJ-13", "the category value is out of range")
            }
            return try HKCategorySample.make(type: categoryType, value: small, fields)
        case .correlation:
            guard let correlationType = type as? HKCorrelationType else {
                throw .invalid("PAYLOAD-2", "a correlation's type \(type) is not a correlation type")
            }
            let count = try reader.count("the number of correlated samples", limit: Self.maximumMembers)
            var members = Set<HKSample>()
            for _ in 0..<count {
                let block = try reader.block("a correlated sample", limit: reader.remaining)
                var inner = PayloadReader(block)
                guard let member = try readObject(&inner, asMember: true) as? HKSample, inner.isAtEnd,
                    members.insert(member).inserted
                else {
                    throw .invalid("OBJ-19", "a correlated sample is malformed or listed twice")
                }
            }
            return try HKCorrelation.make(type: correlationType, objects: members, fields)
        case .workout:
            guard type is HKWorkoutType else {
                throw .invalid("PAYLOAD-2", "a workout's type \(type) is not the workout type")
            }
            return try readWorkout(&reader, fields)
        case .workoutRoute:
            guard type == TypeCatalog.workoutRoute else {
                throw .invalid("PAYLOAD-2", "a workout route's type \(type) is not the workout route type")
            }
            return try readRoute(&reader, fields)
        case .heartbeatSeries:
            guard type == TypeCatalog.heartbeatSeries else {
                throw .invalid("PAYLOAD-2", "a heartbeat series' type \(type) is not the heartbeat series type")
            }
            return try readHeartbeats(&reader, fields)
        case .electrocardiogram:
            guard type == TypeCatalog.electrocardiogram else {
                throw .invalid("PAYLOAD-2", "an electrocardiogram's type \(type) is not the electrocardiogram type")
            }
            return try readElectrocardiogram(&reader, fields)
        case .audiogram:
            guard type == TypeCatalog.audiogram else {
                throw .invalid("PAYLOAD-2", "an audiogram's type \(type) is not the audiogram type")
            }
            return try readAudiogram(&reader, fields)
        case .stateOfMind:
            guard type == TypeCatalog.stateOfMind else {
                throw .invalid("PAYLOAD-2", "a state of mind's type \(type) is not the state of mind type")
            }
            return try readStateOfMind(&reader, fields)
        case .scoredAssessment:
            guard let assessmentType = type as? HKScoredAssessmentType else {
                throw .invalid("PAYLOAD-2", "a scored assessment's type \(type) is not a scored assessment type")
            }
            let count = try reader.count("the number of answers", limit: 16)
            var answers: [Int] = []
            for _ in 0..<count { answers.append(Int(try reader.count("an answer", limit: 100))) }
            return try HKScoredAssessment.make(type: assessmentType, answers: answers, fields)
        case .visionPrescription:
            guard type == TypeCatalog.visionPrescription else {
                throw .invalid("PAYLOAD-2", "a vision prescription's type \(type) is not the vision prescription type")
            }
            return try readVision(&reader, fields)
        case .clinicalRecord:
            guard let clinicalType = type as? HKClinicalType else {
                throw .invalid("PAYLOAD-2", "a clinical record's type \(type) is not a clinical type")
            }
            return try readClinical(&reader, type: clinicalType, fields)
        case .medicationDoseEvent:
            guard type == TypeCatalog.medicationDoseEvent else {
                throw .invalid("PAYLOAD-2", "a dose event's type \(type) is not the medication dose event type")
            }
            return try readDoseEvent(&reader, fields)
        }
    }

    /// The fast path for a whole payload that is a quantity sample without
    /// device or metadata, whose type and unit were checked together
    /// before: hands its fields to `make` (borrowed, so that a caller
    /// keeps only what it needs). `nil` sends the payload down the general
    /// path (``readWholeObject(_:)``), which checks everything.
    @inline(__always)
    package mutating func readPlainQuantity<Result>(
        _ reader: inout PayloadReader,
        _ make: (PlainQuantity) -> Result
    ) throws(HKError) -> Result? {
        let buffer = reader.buffer
        guard buffer.count > 19, buffer[0] == PayloadCodec.formatVersion,
            buffer[1] == PayloadCodec.Kind.quantitySample.rawValue, buffer[18] == 0
        else { return nil }
        reader.offset = 2
        let uuid = try reader.uuid("the uuid")
        reader.offset += 1
        let revision = try readRevision(&reader)
        let code = try reader.varint("the type code")
        guard code == UInt64(lastCompatibleCode),
            let quantityType = TypeCatalog.sampleType(forKindCode: UInt32(code)) as? HKQuantityType
        else { return nil }
        let start = try reader.date("the start date")
        let end = try reader.date("the end date")
        let value = try reader.double("the quantity's value")
        let unit = try readUnit(&reader)
        guard let known = lastCompatibleUnit, known.storage === unit.storage, value.isFinite else { return nil }
        try HKSample.checkInterval(start: start, end: end)
        if quantityType.kindCode == TypeCatalog.insulinDeliveryCode {
            // Insulin deliveries need a reason in their metadata, which a plain sample has not (OBJ-4).
            try HKQuantitySample.checkRequiredMetadata(type: quantityType, metadata: .empty)
        }
        guard reader.isAtEnd else {
            throw .invalid("PAYLOAD-2", "the payload has \(reader.remaining) bytes after its object")
        }
        return make(
            PlainQuantity(
                uuid: uuid,
                revision: revision,
                type: quantityType,
                start: start,
                end: end,
                value: value,
                unit: unit
            )
        )
    }

    /// A quantity sample without device or metadata, read by the fast path.
    package struct PlainQuantity {
        package let uuid: UUID
        package let revision: HKSourceRevision
        package let type: HKQuantityType
        package let start: Date
        package let end: Date
        package let value: Double
        package let unit: HKUnit
    }

    private mutating func readRevision(_ reader: inout PayloadReader) throws(HKError) -> HKSourceRevision {
        let block = try reader.block("the source revision", limit: Self.maximumBlock)
        if let last = lastRevision, Self.equal(last.payloadBlock, block) {
            return last
        }
        var inner = PayloadReader(block)
        let name = try inner.string("the source's name", limit: HKSourceRevision.maximumTextLength)
        let bundle = try inner.string("the source's bundle identifier", limit: HKSourceRevision.maximumTextLength)
        let flags = try inner.byte("the revision flags")
        guard flags & ~3 == 0 else { throw .invalid("PAYLOAD-2", "the revision flags \(flags) are not valid") }
        let version =
            flags & 1 != 0 ? try inner.string("the source's version", limit: HKSourceRevision.maximumTextLength) : nil
        let productType =
            flags & 2 != 0 ? try inner.string("the product type", limit: HKSourceRevision.maximumTextLength) : nil
        let major = try inner.signed("the OS version")
        let minor = try inner.signed("the OS version")
        let patch = try inner.signed("the OS version")
        guard inner.isAtEnd, let major = Int(exactly: major), let minor = Int(exactly: minor),
            let patch = Int(exactly: patch)
        else {
            throw .invalid("PAYLOAD-2", "the source revision is malformed")
        }
        let revision = HKSourceRevision(
            source: HKSource(name: name, bundleIdentifier: bundle),
            version: version,
            productType: productType,
            operatingSystemVersion: OperatingSystemVersion(
                majorVersion: major,
                minorVersion: minor,
                patchVersion: patch
            )
        )
        lastRevision = revision
        return revision
    }

    /// Whether `stored` holds exactly the bytes of `block`.
    @inline(__always)
    private static func equal(_ stored: [UInt8], _ block: UnsafeRawBufferPointer) -> Bool {
        stored.count == block.count
            && stored.withUnsafeBytes { memcmp($0.baseAddress!, block.baseAddress!, block.count) == 0 }
    }

    private mutating func readDevice(_ reader: inout PayloadReader) throws(HKError) -> HKDevice {
        // A run of samples from one device repeats its bytes: find where
        // they end without building strings, and reuse the last device.
        let start = reader.offset
        let present = try reader.byte("the device properties")
        for index in 0..<8 where present & (1 << index) != 0 {
            _ = try reader.block("a device property", limit: HKSourceRevision.maximumTextLength)
        }
        let encoded = UnsafeRawBufferPointer(rebasing: reader.buffer[start..<reader.offset])
        if let last = lastDevice, last.bytes.elementsEqual(encoded) { return last.device }
        reader.offset = start
        let device = try parseDevice(&reader)
        lastDevice = (Array(encoded), device)
        return device
    }

    private func parseDevice(_ reader: inout PayloadReader) throws(HKError) -> HKDevice {
        let mask = try reader.byte("the device properties")
        var values: [String?] = []
        for index in 0..<8 {
            values.append(
                mask & (1 << index) != 0
                    ? try reader.string("a device property", limit: HKSourceRevision.maximumTextLength) : nil
            )
        }
        return HKDevice(properties: values)
    }

    package mutating func readUnit(_ reader: inout PayloadReader) throws(HKError) -> HKUnit {
        let block = try reader.block("a unit", limit: 256)
        if let last = lastUnit, Self.equal(last.storage.utf8, block) {
            return last
        }
        guard let text = String(validating: block, as: UTF8.self) else {
            throw .invalid("PAYLOAD-2", "a unit is not valid UTF-8")
        }
        let unit = try HKUnit.parse(text)
        lastUnit = unit
        return unit
    }

    package mutating func readMetadata(_ reader: inout PayloadReader) throws(HKError) -> HKMetadata {
        let count = try reader.count("the number of metadata keys", limit: HKMetadata.maximumCount)
        var values: [String: HKMetadataValue] = [:]
        values.reserveCapacity(count)
        for _ in 0..<count {
            let key = try reader.string("a metadata key", limit: HKMetadata.maximumKeyLength)
            let value: HKMetadataValue
            switch try reader.byte("a metadata value's kind") {
            case 1: value = .string(try reader.string("a metadata string", limit: HKMetadataValue.maximumStringLength))
            case 2: value = .integer(try reader.signed("a metadata integer"))
            case 3: value = .double(try reader.double("a metadata number"))
            case 4:
                let flag = try reader.byte("a metadata Boolean")
                guard flag <= 1 else { throw .invalid("PAYLOAD-2", "a metadata Boolean is \(flag)") }
                value = .bool(flag == 1)
            case 5: value = .date(try reader.date("a metadata date"))
            case 6:
                let number = try reader.double("a metadata quantity")
                value = .quantity(HKQuantity(unit: try readUnit(&reader), doubleValue: number))
            default: throw .invalid("PAYLOAD-2", "a metadata value's kind is unknown")
            }
            guard values.updateValue(value, forKey: key) == nil else {
                throw .invalid("PAYLOAD-2", "the metadata key \(key) appears twice")
            }
        }
        return try HKMetadata(validatingTyped: values)
    }
}
