import Foundation

/// What every sample has besides its kind's own fields: its interval,
/// identity, source, device and metadata — the field list written once.
///
/// Each sample class is built through one checked door that takes these
/// fields (`HKQuantitySample.make(type:quantity:_:)`,
/// `HKCategorySample.make(type:value:_:)`, `HKCorrelation.make(type:objects:_:)`,
/// `HKWorkout.make(_:_:)`); HealthKit's initializers, the throwing
/// `validated`/`stored` forms, the payload codec, JSON and the importer all
/// go through it.
///
/// It cannot be copied implicitly: a sample's fields are moved from where
/// they are read to the object that keeps them, never copied and destroyed
/// on the way (which cost the decoder a retain and a release per reference
/// field). ``copy()`` makes a second value where one is wanted.
package struct SampleFields: ~Copyable, Sendable {
    package var start: Date
    package var end: Date
    package var uuid: UUID
    package var sourceRevision: HKSourceRevision
    package var device: HKDevice?
    package var metadata: HKMetadata

    package init(
        start: Date,
        end: Date,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice?,
        metadata: HKMetadata
    ) {
        self.start = start
        self.end = end
        self.uuid = uuid
        self.sourceRevision = sourceRevision
        self.device = device
        self.metadata = metadata
    }

    /// Another value with the same fields (the type cannot be copied
    /// implicitly, so that building a sample moves its fields in).
    package func copy() -> SampleFields {
        SampleFields(
            start: start,
            end: end,
            uuid: uuid,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }

    /// The fields of a sample a caller makes: a new uuid, the local
    /// revision (the store stamps the saving app's, OBJ-2), and HealthKit's
    /// untyped metadata checked (OBJ-4, OBJ-6, OBJ-33).
    package static func new(
        start: Date,
        end: Date,
        device: HKDevice?,
        metadata: [String: Any]?
    ) throws(HKError) -> SampleFields {
        SampleFields(
            start: start,
            end: end,
            uuid: .random(),
            sourceRevision: .local,
            device: device,
            metadata: try HKMetadata(validating: metadata)
        )
    }

    /// Fields given in full by an importer, a replica or a service, with
    /// typed metadata checked (OBJ-4) and source and device texts short
    /// enough to store (OBJ-2, OBJ-3).
    package static func given(
        _ start: Date,
        _ end: Date,
        _ uuid: UUID,
        _ sourceRevision: HKSourceRevision,
        _ device: HKDevice?,
        _ metadata: [String: HKMetadataValue]
    ) throws(HKError) -> SampleFields {
        try checkTexts(sourceRevision, device)
        return SampleFields(
            start: start,
            end: end,
            uuid: uuid,
            sourceRevision: sourceRevision,
            device: device,
            metadata: try HKMetadata(validatingTyped: metadata)
        )
    }

    /// Source and device texts a store can hold (OBJ-2, OBJ-3): longer ones
    /// could be written but not read back.
    package static func checkTexts(_ revision: HKSourceRevision, _ device: HKDevice?) throws(HKError) {
        guard revision.fitsPayload else {
            throw .invalid(
                "OBJ-2",
                "a source's name, bundle identifier, version and product type may be at most "
                    + "\(HKSourceRevision.maximumTextLength) bytes each"
            )
        }
        // The bundle identifier is also a part of index keys, which LMDB
        // limits to 511 bytes: 255 bytes, as for an app's authorization (AUTH-11).
        guard revision.source.bundleIdentifier.utf8.count <= HKSource.maximumBundleIdentifierLength else {
            throw .invalid(
                "OBJ-2",
                "a source's bundle identifier may be at most \(HKSource.maximumBundleIdentifierLength) bytes"
            )
        }
        guard device?.fitsPayload ?? true else {
            throw .invalid(
                "OBJ-3",
                "a device's properties may be at most \(HKSourceRevision.maximumTextLength) bytes each"
            )
        }
    }

    /// Finite dates, start ≤ end (OBJ-7).
    package func checkInterval() throws(HKError) {
        try HKSample.checkInterval(start: start, end: end)
    }
}

extension SampleFields {
    /// The fields of a sample one of HealthKit's initializers makes, once
    /// `check` (the kind's own rules) passed; stops the program otherwise,
    /// as HealthKit does.
    package static func newOrStop(
        start: Date,
        end: Date,
        device: HKDevice?,
        metadata: [String: Any]?,
        checking check: (borrowing SampleFields) throws(HKError) -> Void
    ) -> SampleFields {
        checkedOrStop { () throws(HKError) in
            let fields = try SampleFields.new(start: start, end: end, device: device, metadata: metadata)
            try check(fields)
            return fields
        }
    }
}

/// Runs a check for one of HealthKit's initializers, which stop the program
/// on invalid arguments; each has a throwing twin.
package func checkedOrStop<T: ~Copyable>(_ body: () throws(HKError) -> T) -> T {
    do {
        return try body()
    } catch {
        programmerError(error)
    }
}
