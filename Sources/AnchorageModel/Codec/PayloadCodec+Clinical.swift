import Foundation

extension PayloadCodec {
    /// A clinical record after its common fields (kind 12).
    package static func writeClinical(_ record: HKClinicalRecord, into writer: inout PayloadWriter) {
        writer.string(record.displayName)
        guard let resource = record.fhirResource else {
            writer.byte(0)
            return
        }
        writer.byte(resource.sourceURL == nil ? 1 : 3)
        writer.string(resource.resourceType.rawValue)
        writer.string(resource.identifier)
        writer.string(resource.fhirVersion.stringRepresentation)
        if let url = resource.sourceURL { writer.string(url.absoluteString) }
        writer.block(Array(resource.data))
    }
}

extension PayloadDecoder {
    /// A clinical record after its common fields (kind 12).
    mutating func readClinical(
        _ reader: inout PayloadReader,
        type: HKClinicalType,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKClinicalRecord {
        let name = try reader.string("the display name", limit: 1_000)
        let flags = try reader.byte("the record's flags")
        guard flags == 0 || flags == 1 || flags == 3 else {
            throw .invalid("PAYLOAD-2", "the clinical record's flags are not valid")
        }
        var resource: HKFHIRResource?
        if flags != 0 {
            let resourceType = try reader.string("the FHIR resource type", limit: 100)
            let identifier = try reader.string("the FHIR identifier", limit: 1_000)
            let version = try HKFHIRVersion(parsing: try reader.string("the FHIR version", limit: 32))
            let url = flags & 2 != 0 ? try reader.string("the source URL", limit: 4_096) : nil
            let data = try reader.block("the FHIR resource", limit: HKFHIRResource.maximumDataSize)
            resource = try HKFHIRResource(
                resourceType: HKFHIRResourceType(rawValue: resourceType),
                identifier: identifier,
                data: Data(data),
                sourceURL: url.flatMap { URL(string: $0) },
                fhirVersion: version
            )
        }
        return try HKClinicalRecord.make(type: type, displayName: name, resource: resource, fields)
    }
}
