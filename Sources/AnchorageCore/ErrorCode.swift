/// A stable error code: where it came from and its name, written
/// `origin.name` (`log.staleAnchor`, `sync.wrongPeer`, `lmdb.mapFull`).
///
/// ```swift
/// let code = ErrorCode(.sync, "wrongPeer")
/// print(code)                                   // sync.wrongPeer
/// ```
public struct ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The layer that raised it.
    public let origin: ErrorOrigin
    /// Its name within that layer.
    public let name: String

    public init(_ origin: ErrorOrigin, _ name: String) {
        self.origin = origin
        self.name = name
    }

    public var description: String { "\(origin.rawValue).\(name)" }
}

/// The layer an error came from (DESIGN.md's modules).
public struct ErrorOrigin: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// LMDB, the storage engine (`LMDBError`).
    public static let lmdb = ErrorOrigin(rawValue: "lmdb")
    /// The event log (`LogError`).
    public static let log = ErrorOrigin(rawValue: "log")
    /// HealthKit's model and stores (`HKError`, `TextFormError`).
    public static let model = ErrorOrigin(rawValue: "model")
    /// A store's fleet epoch (`FleetEpochError`).
    public static let store = ErrorOrigin(rawValue: "store")
    /// Replication between peers (`SyncError`).
    public static let sync = ErrorOrigin(rawValue: "sync")
    /// Data keys and their providers (`KeyError`).
    public static let keys = ErrorOrigin(rawValue: "keys")
    /// The application's use cases (`ServiceError`, `StatisticsRequestError`).
    public static let service = ErrorOrigin(rawValue: "service")
    /// Reading a Health app export (`ImportError`).
    public static let healthImport = ErrorOrigin(rawValue: "import")
    /// The etcd client (`EtcdError`).
    public static let etcd = ErrorOrigin(rawValue: "etcd")
    /// A fleet's coordination (`FleetError`).
    public static let fleet = ErrorOrigin(rawValue: "fleet")
    /// A node: its configuration and HTTP answers (`APIError`, `NodeConfigurationError`).
    public static let node = ErrorOrigin(rawValue: "node")
    /// The HealthKit interface files (`InterfaceFormatError`, `DeclarationError`).
    public static let interface = ErrorOrigin(rawValue: "interface")
}
