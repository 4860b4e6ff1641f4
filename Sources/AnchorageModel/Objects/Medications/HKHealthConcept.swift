import Foundation

/// The domain a health concept belongs to: medications, for now.
///
/// The raw values are Anchorage's own (HealthKit does not publish its
/// constants' strings); `medication` is `"medication"`.
public struct HKHealthConceptDomain: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The domain of medication concepts (ibuprofen, insulin…).
    public static let medication = HKHealthConceptDomain(rawValue: "medication")
}

/// The identifier of one health concept within its domain: opaque, as in
/// HealthKit, whose only public member is ``domain``. Compare identifiers
/// with `==`; a dose event's ``HKMedicationDoseEvent/medicationConceptIdentifier``
/// equals the ``HKMedicationConcept/identifier`` of the medication it was
/// logged for.
///
/// Anchorage keeps the concept's code (the text that names it where it
/// came from) inside, so that it can be stored and sent as JSON
/// (`{"domain": "medication", "code": "…"}`); HealthKit's apps cannot
/// make identifiers, and neither can Anchorage's (MED-1 checks the ones
/// that arrive as JSON or payloads).
public final class HKHealthConceptIdentifier: Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: immutable.
    /// The domain this identifier belongs to.
    public let domain: HKHealthConceptDomain
    /// The concept's code in its domain, 1 to 200 bytes.
    package let code: String

    /// The most bytes a code or a domain may have.
    package static let maximumCodeSize = 200

    /// An identifier, checked (MED-1).
    package init(domain: HKHealthConceptDomain, code: String) throws(HKError) {
        guard !code.isEmpty, code.utf8.count <= Self.maximumCodeSize, !domain.rawValue.isEmpty,
            domain.rawValue.utf8.count <= Self.maximumCodeSize
        else { throw .invalid("MED-1", "a health concept identifier has a domain and a code of 1 to 200 bytes") }
        self.domain = domain
        self.code = code
    }

    public var description: String { "\(domain.rawValue):\(code)" }

    public static func == (lhs: HKHealthConceptIdentifier, rhs: HKHealthConceptIdentifier) -> Bool {
        lhs.domain == rhs.domain && lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(domain)
        hasher.combine(code)
    }
}

/// A code from a clinical terminology (RxNorm, SNOMED CT…) that names a
/// concept: its system, the system's version and the code there.
///
/// ```swift
/// let rxnorm = HKClinicalCoding(system: "http://www.nlm.nih.gov/research/umls/rxnorm", version: nil, code: "197361")
/// ```
public final class HKClinicalCoding: Hashable, @unchecked Sendable {
    // @unchecked: immutable.
    /// The terminology, usually as a URL.
    public let system: String
    /// The terminology's version, if known.
    public let version: String?
    /// The code in the terminology.
    public let code: String

    /// A coding.
    public init(system: String, version: String?, code: String) {
        self.system = system
        self.version = version
        self.code = code
    }

    public static func == (lhs: HKClinicalCoding, rhs: HKClinicalCoding) -> Bool {
        lhs.system == rhs.system && lhs.version == rhs.version && lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(system)
        hasher.combine(version)
        hasher.combine(code)
    }
}

/// The form a medication is made in. The raw values are Anchorage's own:
/// the constants' names (`"capsule"`…).
public struct HKMedicationGeneralForm: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let capsule = HKMedicationGeneralForm(rawValue: "capsule")
    public static let cream = HKMedicationGeneralForm(rawValue: "cream")
    public static let device = HKMedicationGeneralForm(rawValue: "device")
    public static let drops = HKMedicationGeneralForm(rawValue: "drops")
    public static let foam = HKMedicationGeneralForm(rawValue: "foam")
    public static let gel = HKMedicationGeneralForm(rawValue: "gel")
    public static let inhaler = HKMedicationGeneralForm(rawValue: "inhaler")
    public static let injection = HKMedicationGeneralForm(rawValue: "injection")
    public static let liquid = HKMedicationGeneralForm(rawValue: "liquid")
    public static let lotion = HKMedicationGeneralForm(rawValue: "lotion")
    public static let ointment = HKMedicationGeneralForm(rawValue: "ointment")
    public static let patch = HKMedicationGeneralForm(rawValue: "patch")
    public static let powder = HKMedicationGeneralForm(rawValue: "powder")
    public static let spray = HKMedicationGeneralForm(rawValue: "spray")
    public static let suppository = HKMedicationGeneralForm(rawValue: "suppository")
    public static let tablet = HKMedicationGeneralForm(rawValue: "tablet")
    public static let topical = HKMedicationGeneralForm(rawValue: "topical")
    public static let unknown = HKMedicationGeneralForm(rawValue: "unknown")

    /// Every form HealthKit names, in its order.
    package static let all: [HKMedicationGeneralForm] = [
        .capsule, .cream, .device, .drops, .foam, .gel, .inhaler, .injection, .liquid, .lotion, .ointment, .patch,
        .powder, .spray, .suppository, .tablet, .topical, .unknown,
    ]
}
