/// A stored piece of health data: the root of the object hierarchy.
///
/// Objects are immutable (OBJ-5) and identified by a ``uuid`` that is never
/// reused (OBJ-1); two objects are equal when their uuids are.
public class HKObject: Hashable, @unchecked Sendable {
    // @unchecked: every stored property of this class and its subclasses is
    // a `let` of a Sendable type.

    /// Everything the object holds besides its kind's own fields, stored
    /// as one value: built once, moved in, never taken apart.
    package let fields: SampleFields

    @inline(__always)
    package init(fields: consuming SampleFields) {
        self.fields = fields
    }

    /// The object's identity (OBJ-1).
    public var uuid: UUID { fields.uuid }
    /// Who saved the object and in which version; assigned by the store at
    /// save time (OBJ-2).
    public var sourceRevision: HKSourceRevision { fields.sourceRevision }
    /// The device that produced the data, if the caller said (OBJ-3).
    public var device: HKDevice? { fields.device }
    /// The validated metadata.
    package var typedMetadata: HKMetadata { fields.metadata }

    /// The app that saved the object.
    @available(*, deprecated, message: "use sourceRevision.source")
    public var source: HKSource { sourceRevision.source }

    /// The metadata, as HealthKit's dictionary of `String`, number, `Bool`,
    /// `Date` and ``HKQuantity`` values (OBJ-4); `nil` when there is none.
    public var metadata: [String: Any]? { typedMetadata.anyDictionary }

    /// The metadata with its kinds preserved.
    public var metadataValues: [String: HKMetadataValue] { typedMetadata.values }

    public static func == (lhs: HKObject, rhs: HKObject) -> Bool {
        lhs.uuid == rhs.uuid
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid)
    }
}

/// An object with a type and a time interval (OBJ-7).
public class HKSample: HKObject, @unchecked Sendable {
    /// The sample's type.
    public let sampleType: HKSampleType
    /// When the measurement starts.
    public var startDate: Date { fields.start }
    /// When it ends; equal to ``startDate`` for a point-in-time reading.
    public var endDate: Date { fields.end }

    @inline(__always)
    package init(sampleType: HKSampleType, fields: consuming SampleFields) {
        self.sampleType = sampleType
        super.init(fields: fields)
    }

    /// The same sample with other common fields, unchecked: each kind
    /// overrides it (restamping a revision, replacing members).
    package func with(_ fields: consuming SampleFields) -> HKSample {
        preconditionFailure("\(type(of: self)) does not override with(_:)")
    }

    /// Whether the sample has a non-zero duration.
    public var hasUndeterminedDuration: Bool { false }

    /// The stored points of a sample whose value includes a series (routes,
    /// heartbeat series, ECGs), when it carries them; `nil` for other
    /// samples. Overridden, so that asking costs a call, not a cast.
    package var seriesPoints: SeriesPoints? { nil }

    /// Whether the sample is of a kind that stores points but was read
    /// without them (SERIES-3).
    package var lacksSeriesPoints: Bool { false }

    /// Checks the interval of a new sample: finite dates, start ≤ end (OBJ-7).
    package static func checkInterval(start: Date, end: Date) throws(HKError) {
        guard start.timeIntervalSinceReferenceDate.isFinite, end.timeIntervalSinceReferenceDate.isFinite else {
            throw .invalid("OBJ-7", "a sample's dates must be valid dates")
        }
        guard start <= end else {
            throw .invalid("OBJ-7", "a sample's start date must not be after its end date")
        }
    }
}

/// A record that an object was deleted (OBJ-26): its uuid and, when the
/// object had them, its sync identifier and version.
public final class HKDeletedObject: Hashable, @unchecked Sendable {
    /// The deleted object's identity.
    public let uuid: UUID
    package let typedMetadata: HKMetadata

    package init(uuid: UUID, metadata: HKMetadata) {
        self.uuid = uuid
        self.typedMetadata = metadata
    }

    /// The deletion record of `object`, keeping only its sync metadata (OBJ-26).
    package convenience init(deleting object: HKObject) {
        var kept: [String: HKMetadataValue] = [:]
        kept[HKMetadataKeySyncIdentifier] = object.typedMetadata[HKMetadataKeySyncIdentifier]
        kept[HKMetadataKeySyncVersion] = object.typedMetadata[HKMetadataKeySyncVersion]
        self.init(uuid: object.uuid, metadata: HKMetadata(values: kept))
    }

    /// The sync identifier and version of the deleted object, if it had them.
    public var metadata: [String: Any]? { typedMetadata.anyDictionary }

    public static func == (lhs: HKDeletedObject, rhs: HKDeletedObject) -> Bool {
        lhs.uuid == rhs.uuid && lhs.typedMetadata == rhs.typedMetadata
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid)
    }
}
