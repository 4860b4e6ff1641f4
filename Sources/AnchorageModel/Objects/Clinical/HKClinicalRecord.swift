import Foundation

/// A record from a health institution's patient portal: its clinical type,
/// the name it is shown with, and the FHIR resource it holds (CLIN-1).
///
/// HealthKit's apps only read clinical records (Health Records downloads
/// them); here importers and services make them with
/// ``stored(type:displayName:fhirResource:start:end:uuid:sourceRevision:device:metadata:)``.
/// Reading them needs their own authorization: a store's `grantAll` policy
/// does not grant them (AUTH-13).
///
/// ```swift
/// let records = try await HKSampleQueryDescriptor(
///     predicates: [.clinicalRecord(type: HKClinicalType(.immunizationRecord))], sortDescriptors: []
/// ).result(for: store)
/// ```
public final class HKClinicalRecord: HKSample, @unchecked Sendable {
    /// The record's clinical type.
    public var clinicalType: HKClinicalType { sampleType as! HKClinicalType }
    /// The name the record is shown with.
    public let displayName: String
    /// The FHIR resource, when the record has one.
    public let fhirResource: HKFHIRResource?

    package init(type: HKClinicalType, displayName: String, resource: HKFHIRResource?, fields: consuming SampleFields) {
        self.displayName = displayName
        self.fhirResource = resource
        super.init(sampleType: type, fields: fields)
    }

    /// A clinical record with every stored field given.
    ///
    /// - Throws: ``HKError`` `CLIN-1` for a display name over 1,000 bytes or
    ///   a resource out of its limits; the common fields' rules.
    public static func stored(
        type: HKClinicalType,
        displayName: String,
        fhirResource: HKFHIRResource?,
        start: Date,
        end: Date,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice? = nil,
        metadata: [String: HKMetadataValue] = [:]
    ) throws(HKError) -> HKClinicalRecord {
        try make(
            type: type,
            displayName: displayName,
            resource: fhirResource,
            .given(start, end, uuid, sourceRevision, device, metadata)
        )
    }

    /// The one checked door every clinical record is built through.
    package static func make(
        type: HKClinicalType,
        displayName: String,
        resource: HKFHIRResource?,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKClinicalRecord {
        try fields.checkInterval()
        guard displayName.utf8.count <= 1_000 else {
            throw .invalid("CLIN-1", "a clinical record's display name is at most 1,000 bytes")
        }
        return HKClinicalRecord(type: type, displayName: displayName, resource: resource, fields: fields)
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKClinicalRecord(type: clinicalType, displayName: displayName, resource: fhirResource, fields: fields)
    }
}
