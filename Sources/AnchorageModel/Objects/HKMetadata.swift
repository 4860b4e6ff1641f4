/// Validated metadata: keys to values of the allowed kinds.
package struct HKMetadata: Sendable, Hashable {
    /// The values by key.
    package let values: [String: HKMetadataValue]

    package static let empty = HKMetadata(values: [:])

    /// The most keys one object may carry.
    package static let maximumCount = 256
    /// The longest key, in UTF-8 bytes.
    package static let maximumKeyLength = 256

    package init(values: [String: HKMetadataValue]) {
        self.values = values
    }

    /// Validates HealthKit-shaped metadata (OBJ-4, OBJ-6, OBJ-33).
    package init(validating metadata: [String: Any]?) throws(HKError) {
        guard let metadata, !metadata.isEmpty else {
            self.values = [:]
            return
        }
        guard metadata.count <= Self.maximumCount else {
            throw .invalid(
                "OBJ-4",
                "an object may carry at most \(Self.maximumCount) metadata keys, not \(metadata.count)"
            )
        }
        var values: [String: HKMetadataValue] = [:]
        values.reserveCapacity(metadata.count)
        for (key, value) in metadata {
            try Self.check(key: key)
            values[key] = try HKMetadataValue.converting(value, key: key)
        }
        try Self.checkSyncPair(values)
        self.values = values
    }

    /// Validates typed metadata (from the codec or JSON).
    package init(validatingTyped metadata: [String: HKMetadataValue]) throws(HKError) {
        guard metadata.count <= Self.maximumCount else {
            throw .invalid(
                "OBJ-4",
                "an object may carry at most \(Self.maximumCount) metadata keys, not \(metadata.count)"
            )
        }
        for (key, value) in metadata {
            try Self.check(key: key)
            _ = try value.checked(key: key)
        }
        try Self.checkSyncPair(metadata)
        self.values = metadata
    }

    /// Keys are non-empty and bounded; `HK…` keys must be HealthKit's (OBJ-6).
    package static func check(key: String) throws(HKError) {
        guard !key.isEmpty, key.utf8.count <= maximumKeyLength else {
            throw .invalid("OBJ-4", "a metadata key must have 1 to \(maximumKeyLength) bytes")
        }
        if key.hasPrefix("HK") && !knownMetadataKeys.contains(key) {
            throw .invalid("OBJ-6", "'\(key)' begins with HK but is not a HealthKit metadata key")
        }
    }

    /// A sync identifier needs a sync version and vice versa, of the right
    /// kinds (OBJ-33).
    package static func checkSyncPair(_ values: [String: HKMetadataValue]) throws(HKError) {
        let identifier = values[HKMetadataKeySyncIdentifier]
        let version = values[HKMetadataKeySyncVersion]
        switch (identifier, version) {
        case (nil, nil):
            return
        case (.string?, .integer?), (.string?, .double?):
            return
        case (nil, _?), (_?, nil):
            throw .invalid("OBJ-33", "HKMetadataKeySyncIdentifier and HKMetadataKeySyncVersion go together")
        default:
            throw .invalid("OBJ-33", "the sync identifier must be a string and the sync version a number")
        }
    }

    /// HealthKit's `[String: Any]` form; `nil` when empty.
    package var anyDictionary: [String: Any]? {
        values.isEmpty ? nil : values.mapValues(\.anyValue)
    }

    package subscript(key: String) -> HKMetadataValue? { values[key] }

    package var isEmpty: Bool { values.isEmpty }

    /// The sync identifier and version, when present (OBJ-33).
    package var sync: (identifier: String, version: Double)? {
        guard case .string(let identifier)? = values[HKMetadataKeySyncIdentifier],
            let version = values[HKMetadataKeySyncVersion]?.number
        else { return nil }
        return (identifier, version)
    }
}
