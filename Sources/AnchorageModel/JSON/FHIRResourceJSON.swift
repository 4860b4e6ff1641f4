import Foundation

/// A FHIR resource in JSON: its type, identifier, version, source URL and
/// its own JSON as base64 (`data`), byte for byte as received.
///
/// ```json
/// {"resourceType": "Immunization", "identifier": "1234", "fhirVersion": "4.0.1",
///  "sourceURL": "https://fhir.example.org/Immunization/1234", "data": "eyJyZXNvdXJjZVR5cGUiOi..."}
/// ```
package struct FHIRResourceJSON: Codable, Sendable {
    var resourceType: String
    var identifier: String
    var fhirVersion: String
    var sourceURL: String?
    var data: Data

    package init(_ resource: HKFHIRResource) {
        resourceType = resource.resourceType.rawValue
        identifier = resource.identifier
        fhirVersion = resource.fhirVersion.stringRepresentation
        sourceURL = resource.sourceURL?.absoluteString
        data = resource.data
    }

    package func resource() throws -> HKFHIRResource {
        try HKFHIRResource(
            resourceType: HKFHIRResourceType(rawValue: resourceType),
            identifier: identifier,
            data: data,
            sourceURL: sourceURL.flatMap { URL(string: $0) },
            fhirVersion: try HKFHIRVersion(parsing: fhirVersion)
        )
    }
}
