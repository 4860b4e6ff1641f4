import Foundation

/// The kind of a FHIR resource, by its FHIR name.
public struct HKFHIRResourceType: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let allergyIntolerance = HKFHIRResourceType(rawValue: "AllergyIntolerance")
    public static let condition = HKFHIRResourceType(rawValue: "Condition")
    public static let coverage = HKFHIRResourceType(rawValue: "Coverage")
    public static let diagnosticReport = HKFHIRResourceType(rawValue: "DiagnosticReport")
    public static let documentReference = HKFHIRResourceType(rawValue: "DocumentReference")
    public static let immunization = HKFHIRResourceType(rawValue: "Immunization")
    public static let medicationDispense = HKFHIRResourceType(rawValue: "MedicationDispense")
    public static let medicationOrder = HKFHIRResourceType(rawValue: "MedicationOrder")
    public static let medicationRequest = HKFHIRResourceType(rawValue: "MedicationRequest")
    public static let medicationStatement = HKFHIRResourceType(rawValue: "MedicationStatement")
    public static let observation = HKFHIRResourceType(rawValue: "Observation")
    public static let procedure = HKFHIRResourceType(rawValue: "Procedure")
}

/// A FHIR release.
public struct HKFHIRRelease: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let dstu2 = HKFHIRRelease(rawValue: "DSTU2")
    public static let r4 = HKFHIRRelease(rawValue: "R4")
    public static let unknown = HKFHIRRelease(rawValue: "Unknown")
}

/// A FHIR version: `1.0.2` (DSTU2) or `4.0.1` (R4), or another.
public final class HKFHIRVersion: Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: immutable.
    public let majorVersion: Int
    public let minorVersion: Int
    public let patchVersion: Int

    package required init(major: Int, minor: Int, patch: Int) {
        majorVersion = major
        minorVersion = minor
        patchVersion = patch
    }

    /// The version a string such as `4.0.1` names.
    ///
    /// - Throws: ``HKError`` `CLIN-1` for anything but three numbers.
    public convenience init(fromVersionString versionString: String) throws {
        try self.init(parsing: versionString)
    }

    package convenience init(parsing text: String) throws(HKError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, text.utf8.count <= 32, let major = Int(parts[0]), let minor = Int(parts[1]),
            let patch = Int(parts[2]), major >= 0, minor >= 0, patch >= 0
        else { throw .invalid("CLIN-1", "a FHIR version is three numbers, such as 4.0.1") }
        self.init(major: major, minor: minor, patch: patch)
    }

    /// The release the version belongs to.
    public var fhirRelease: HKFHIRRelease {
        switch (majorVersion, minorVersion) {
        case (1, 0): .dstu2
        case (4, 0): .r4
        default: .unknown
        }
    }

    /// `major.minor.patch`.
    public var stringRepresentation: String { "\(majorVersion).\(minorVersion).\(patchVersion)" }
    public var description: String { stringRepresentation }

    /// 1.0.2, the DSTU2 version Health Records uses.
    public class func primaryDSTU2() -> Self { Self(major: 1, minor: 0, patch: 2) }
    /// 4.0.1, the R4 version Health Records uses.
    public class func primaryR4() -> Self { Self(major: 4, minor: 0, patch: 1) }

    public static func == (lhs: HKFHIRVersion, rhs: HKFHIRVersion) -> Bool {
        lhs.stringRepresentation == rhs.stringRepresentation
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(stringRepresentation) }
}

/// A FHIR resource as the health institution sent it: its type, its
/// identifier there, the JSON bytes and where they came from.
public final class HKFHIRResource: Hashable, @unchecked Sendable {
    // @unchecked: immutable.
    /// The resource's FHIR type.
    public let resourceType: HKFHIRResourceType
    /// Its `id` at the institution.
    public let identifier: String
    /// The resource's JSON, as received.
    public let data: Data
    /// Where it was fetched from, if known.
    public let sourceURL: URL?
    /// The FHIR version it is written in.
    public let fhirVersion: HKFHIRVersion

    /// The most bytes a resource's JSON may hold.
    public static let maximumDataSize = 4 << 20

    package init(
        resourceType: HKFHIRResourceType,
        identifier: String,
        data: Data,
        sourceURL: URL?,
        fhirVersion: HKFHIRVersion
    ) throws(HKError) {
        guard !resourceType.rawValue.isEmpty, resourceType.rawValue.utf8.count <= 100 else {
            throw .invalid("CLIN-1", "a FHIR resource type is a name of at most 100 bytes")
        }
        guard !identifier.isEmpty, identifier.utf8.count <= 1_000 else {
            throw .invalid("CLIN-1", "a FHIR resource's identifier is 1 to 1,000 bytes")
        }
        guard data.count <= Self.maximumDataSize else {
            throw .invalid("CLIN-1", "a FHIR resource holds at most \(Self.maximumDataSize >> 20) MB of JSON")
        }
        guard (sourceURL?.absoluteString.utf8.count ?? 0) <= 4_096 else {
            throw .invalid("CLIN-1", "a FHIR resource's source URL is at most 4,096 bytes")
        }
        self.resourceType = resourceType
        self.identifier = identifier
        self.data = data
        self.sourceURL = sourceURL
        self.fhirVersion = fhirVersion
    }

    public static func == (lhs: HKFHIRResource, rhs: HKFHIRResource) -> Bool {
        lhs.resourceType == rhs.resourceType && lhs.identifier == rhs.identifier && lhs.data == rhs.data
            && lhs.sourceURL == rhs.sourceURL && lhs.fhirVersion == rhs.fhirVersion
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(resourceType)
        hasher.combine(identifier)
    }
}
