/// The app or program that saved an object (OBJ-2).
///
/// Sources are compared by bundle identifier.
///
/// ```swift
/// let me = HKSource.default()
/// print(me.name, me.bundleIdentifier)
/// ```
public final class HKSource: Hashable, Sendable, CustomStringConvertible {
    /// The display name.
    public let name: String
    /// The reverse-DNS identifier (`com.example.app`).
    public let bundleIdentifier: String

    /// The longest bundle identifier a store accepts in a sample's source:
    /// 255 UTF-8 bytes (it is a part of index keys, as in authorization).
    package static let maximumBundleIdentifierLength = 255

    /// Creates a source.
    public init(name: String, bundleIdentifier: String) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
    }

    /// The source of this process: the name of the executable and the
    /// identifier `local.<name>`, unless the store is opened with a principal.
    public class func `default`() -> HKSource {
        processSource
    }

    private static let processSource: HKSource = {
        let name = ProcessInfo.processInfo.processName
        return HKSource(name: name, bundleIdentifier: "local." + name)
    }()

    public static func == (lhs: HKSource, rhs: HKSource) -> Bool {
        lhs.bundleIdentifier == rhs.bundleIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bundleIdentifier)
    }

    public var description: String { "\(name) (\(bundleIdentifier))" }
}

/// A version of a source, and the system it ran on (OBJ-2).
///
/// ```swift
/// let revision = HKSourceRevision(source: .default(), version: "2.1")
/// ```
public final class HKSourceRevision: Hashable, Sendable, CustomStringConvertible {
    /// The app or program.
    public let source: HKSource
    /// The app's version, if known.
    public let version: String?
    /// The product type of the device that saved the object (`iPhone15,2`), if known.
    public let productType: String?
    /// The operating system version of the saving device.
    public let operatingSystemVersion: OperatingSystemVersion
    /// The revision's block in payloads, encoded once.
    package let payloadBlock: [UInt8]

    /// Creates a revision with a version only.
    public convenience init(source: HKSource, version: String?) {
        self.init(
            source: source,
            version: version,
            productType: nil,
            operatingSystemVersion: OperatingSystemVersion(majorVersion: 0, minorVersion: 0, patchVersion: 0)
        )
    }

    /// Creates a revision.
    public init(
        source: HKSource,
        version: String?,
        productType: String?,
        operatingSystemVersion: OperatingSystemVersion
    ) {
        self.source = source
        self.version = version
        self.productType = productType
        self.operatingSystemVersion = operatingSystemVersion
        self.payloadBlock = PayloadCodec.revisionBlock(
            name: source.name,
            bundleIdentifier: source.bundleIdentifier,
            version: version,
            productType: productType,
            operatingSystemVersion: operatingSystemVersion
        )
        self.fitsPayload = [source.name, source.bundleIdentifier, version, productType].allSatisfy {
            ($0?.utf8.count ?? 0) <= Self.maximumTextLength
        }
    }

    /// The longest a source's name, bundle identifier, version or product
    /// type, and any device property, may be in a store: 4,096 UTF-8 bytes
    /// (the payload format's limit for these texts).
    package static let maximumTextLength = 4_096

    /// Whether every text of the revision fits a store (OBJ-2); known from
    /// its creation, so the save path checks it without counting again.
    package let fitsPayload: Bool

    /// The revision of this process, used for objects created here until a
    /// store assigns the saving principal's revision.
    package static let local = HKSourceRevision(source: .default(), version: nil)

    public static func == (lhs: HKSourceRevision, rhs: HKSourceRevision) -> Bool {
        lhs.source == rhs.source && lhs.version == rhs.version && lhs.productType == rhs.productType
            && lhs.operatingSystemVersion.majorVersion == rhs.operatingSystemVersion.majorVersion
            && lhs.operatingSystemVersion.minorVersion == rhs.operatingSystemVersion.minorVersion
            && lhs.operatingSystemVersion.patchVersion == rhs.operatingSystemVersion.patchVersion
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(version)
        hasher.combine(productType)
        hasher.combine(operatingSystemVersion.majorVersion)
        hasher.combine(operatingSystemVersion.minorVersion)
        hasher.combine(operatingSystemVersion.patchVersion)
    }

    public var description: String {
        "\(source) \(version ?? "-")"
    }
}

/// Matches any version in a revision predicate (PRED-8).
public let HKSourceRevisionAnyVersion = "HKSourceRevisionAnyVersion"
/// Matches any product type in a revision predicate (PRED-8).
public let HKSourceRevisionAnyProductType = "HKSourceRevisionAnyProductType"
/// Matches any operating system in a revision predicate (PRED-8): a version of -1.-1.-1.
public let HKSourceRevisionAnyOperatingSystem = OperatingSystemVersion(
    majorVersion: -1,
    minorVersion: -1,
    patchVersion: -1
)

/// The device that produced a sample (OBJ-3). Every property is optional.
///
/// ```swift
/// let scale = HKDevice(name: "Scale", manufacturer: "Acme", model: "S1", hardwareVersion: nil,
///                      firmwareVersion: "1.2", softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil)
/// ```
public final class HKDevice: Hashable, Sendable, CustomStringConvertible {
    /// The device's name.
    public let name: String?
    /// Its manufacturer.
    public let manufacturer: String?
    /// Its model.
    public let model: String?
    /// Its hardware version.
    public let hardwareVersion: String?
    /// Its firmware version.
    public let firmwareVersion: String?
    /// Its software version.
    public let softwareVersion: String?
    /// An identifier the saving app gave it.
    public let localIdentifier: String?
    /// The device identifier part of its FDA Unique Device Identifier.
    public let udiDeviceIdentifier: String?

    /// Creates a device description.
    public init(
        name: String?,
        manufacturer: String?,
        model: String?,
        hardwareVersion: String?,
        firmwareVersion: String?,
        softwareVersion: String?,
        localIdentifier: String?,
        udiDeviceIdentifier: String?
    ) {
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.hardwareVersion = hardwareVersion
        self.firmwareVersion = firmwareVersion
        self.softwareVersion = softwareVersion
        self.localIdentifier = localIdentifier
        self.udiDeviceIdentifier = udiDeviceIdentifier
        self.fitsPayload = [
            name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion, localIdentifier,
            udiDeviceIdentifier,
        ].allSatisfy { ($0?.utf8.count ?? 0) <= HKSourceRevision.maximumTextLength }
    }

    /// This machine, as far as the process can tell.
    public class func local() -> HKDevice {
        HKDevice(
            name: ProcessInfo.processInfo.hostName,
            manufacturer: nil,
            model: nil,
            hardwareVersion: nil,
            firmwareVersion: nil,
            softwareVersion: ProcessInfo.processInfo.operatingSystemVersionString,
            localIdentifier: nil,
            udiDeviceIdentifier: nil
        )
    }

    /// Whether every property fits a store (OBJ-3); known from its
    /// creation, so the save path checks it without counting again.
    package let fitsPayload: Bool

    /// The eight properties in order (for codecs and predicates).
    package var properties: [String?] {
        [
            name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion, localIdentifier,
            udiDeviceIdentifier,
        ]
    }

    /// A device from its eight ``properties`` in order, as the codecs read
    /// them; missing trailing ones are `nil`.
    package convenience init(properties: [String?]) {
        func property(_ index: Int) -> String? { index < properties.count ? properties[index] : nil }
        self.init(
            name: property(0),
            manufacturer: property(1),
            model: property(2),
            hardwareVersion: property(3),
            firmwareVersion: property(4),
            softwareVersion: property(5),
            localIdentifier: property(6),
            udiDeviceIdentifier: property(7)
        )
    }

    public static func == (lhs: HKDevice, rhs: HKDevice) -> Bool {
        lhs.properties == rhs.properties
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(properties)
    }

    public var description: String {
        "HKDevice(\(name ?? "-"), \(manufacturer ?? "-"), \(model ?? "-"))"
    }
}
