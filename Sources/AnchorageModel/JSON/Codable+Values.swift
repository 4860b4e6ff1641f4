// The JSON forms of units, quantities, metadata values, sources and devices
// (docs/json-format.md). Decoding validates through the throwing doors, so
// bad input is a thrown error, never a stopped program.

extension HKUnit: Codable {
    /// Decodes the unit string, such as `"count/min"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = try HKUnit.parse(container.decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(unitString)
    }
}

extension HKQuantity: Codable {
    private enum CodingKeys: String, CodingKey {
        case value, unit
    }

    /// Decodes `{"value": 72, "unit": "count/min"}`; the value must be finite.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let value = try container.decode(Double.self, forKey: .value)
        guard value.isFinite else { throw HKError.invalid("UNIT-18", "a quantity's value must be a finite number") }
        self.init(unit: try container.decode(HKUnit.self, forKey: .unit), doubleValue: value)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(unit, forKey: .unit)
    }
}

extension HKMetadataValue: Codable {
    private enum CodingKeys: String, CodingKey {
        case string, integer, double, bool, date, quantity
    }

    /// Decodes a tagged value, one key naming its kind:
    /// `{"string": "…"}`, `{"integer": 3}`, `{"double": 2.5}`, `{"bool": true}`,
    /// `{"date": "2026-11-22T10:00:00Z"}`, `{"quantity": {"value": 1, "unit": "kg"}}`.
    public init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<CodingKeys>
        do {
            container = try decoder.container(keyedBy: CodingKeys.self)
        } catch DecodingError.typeMismatch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: #"a metadata value is an object naming its kind, such as {"integer": 3}, "#
                        + #"{"string": "…"}, {"double": 0.5}, {"bool": true}, {"date": "…"} or {"quantity": {…}}"#
                )
            )
        }
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw HKError.invalid(
                "OBJ-4",
                "a metadata value names exactly one kind: string, integer, double, bool, date or quantity"
            )
        }
        switch key {
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .integer: self = .integer(try container.decode(Int64.self, forKey: key))
        case .double: self = .double(try container.decode(Double.self, forKey: key))
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .date: self = .date(try JSONDates.decode(container, key))
        case .quantity: self = .quantity(try container.decode(HKQuantity.self, forKey: key))
        }
        _ = try checked(key: "metadata")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .string)
        case .integer(let value): try container.encode(value, forKey: .integer)
        case .double(let value): try container.encode(value, forKey: .double)
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .date(let value): try container.encode(ISO8601.format(value), forKey: .date)
        case .quantity(let value): try container.encode(value, forKey: .quantity)
        }
    }
}

extension HKSource: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, bundleIdentifier
    }

    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try JSONStrings.bounded(container.decode(String.self, forKey: .name)),
            bundleIdentifier: try JSONStrings.bounded(container.decode(String.self, forKey: .bundleIdentifier))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
    }
}

extension HKSourceRevision: Codable {
    private enum CodingKeys: String, CodingKey {
        case source, version, productType, operatingSystemVersion
    }

    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let os = try container.decodeIfPresent(String.self, forKey: .operatingSystemVersion) ?? "0.0.0"
        guard let system = Self.systemVersion(os) else {
            throw HKError.invalid("OBJ-2", "operatingSystemVersion is written major.minor.patch")
        }
        self.init(
            source: try container.decode(HKSource.self, forKey: .source),
            version: try container.decodeIfPresent(String.self, forKey: .version).map(JSONStrings.bounded),
            productType: try container.decodeIfPresent(String.self, forKey: .productType).map(JSONStrings.bounded),
            operatingSystemVersion: system
        )
    }

    /// `major.minor.patch`, as the JSON form writes a system version;
    /// `nil` for anything else.
    package static func systemVersion(_ text: String) -> OperatingSystemVersion? {
        let parts = text.split(separator: ".").map { Int($0) }
        guard parts.count == 3, let major = parts[0], let minor = parts[1], let patch = parts[2] else { return nil }
        return OperatingSystemVersion(majorVersion: major, minorVersion: minor, patchVersion: patch)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encodeIfPresent(productType, forKey: .productType)
        let os = operatingSystemVersion
        try container.encode(
            "\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)",
            forKey: .operatingSystemVersion
        )
    }
}

extension HKDevice: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion, localIdentifier
        case udiDeviceIdentifier
    }

    /// The JSON names of the eight ``properties``, in their order (the fast
    /// batch reader reads devices by them).
    package static let jsonFields = CodingKeys.allCases.map(\.rawValue)

    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var values: [String?] = []
        for key in CodingKeys.allCases {
            values.append(try container.decodeIfPresent(String.self, forKey: key).map(JSONStrings.bounded))
        }
        self.init(properties: values)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        for (key, value) in zip(CodingKeys.allCases, properties) {
            try container.encodeIfPresent(value, forKey: key)
        }
    }
}

/// Dates in JSON: ISO 8601 strings.
package enum JSONDates {
    package static func decode<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = ISO8601.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "'\(text.prefix(40))' is not an ISO 8601 date such as 2026-11-22T10:15:00Z"
            )
        }
        return date
    }

    package static func decodeIfPresent<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> Date?
    {
        guard container.contains(key) else { return nil }
        return try decode(container, key)
    }
}

/// Bounds on strings from outside.
package enum JSONStrings {
    /// As long as a store holds (``HKSourceRevision/maximumTextLength``).
    package static let maximumLength = HKSourceRevision.maximumTextLength

    package static func bounded(_ text: String) throws(HKError) -> String {
        guard text.utf8.count <= maximumLength else {
            throw .invalid("OBJ-2", "a name or identifier is longer than \(maximumLength) bytes")
        }
        return text
    }
}
