import Foundation

extension SampleBatch {
    /// The common batch decoded without Foundation's `JSONDecoder`: an
    /// array of quantity and category samples written with the documented
    /// fields (`kind`, `uuid`, `type`, `startDate`, `endDate`, `quantity`
    /// or `value`, `sourceRevision`, `device`, `metadata`), strings without
    /// escapes. `nil` for anything else, or anything wrong: then the
    /// reference decoder decodes the whole body and says what is wrong. What
    /// both decode, they decode alike (SampleBatchFastPathTests compares them
    /// on generated and damaged batches).
    static func fast(_ bytes: UnsafeRawBufferPointer) -> [HKObject]? {
        var reader = FastSampleReader(bytes: bytes)
        return reader.batch()
    }
}

/// A strict, allocation-light reader of one JSON shape; see
/// ``SampleBatch/fast(_:)``. Every method returns `nil` at the first thing
/// it does not expect.
struct FastSampleReader {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// One element of a batch: a sample object that fills `bytes` (bar
    /// whitespace), or `nil`.
    static func element(_ bytes: UnsafeRawBufferPointer) -> HKObject? {
        var reader = FastSampleReader(bytes: bytes)
        guard let object = reader.sample(), reader.end() else { return nil }
        return object
    }

    mutating func batch() -> [HKObject]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var objects: [HKObject] = []
        if take(UInt8(ascii: "]")) { return end() ? objects : nil }
        repeat {
            guard let object = sample() else { return nil }
            objects.append(object)
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")), end() else { return nil }
        return objects
    }

    // MARK: One sample

    private enum Kind { case quantity, category }

    private mutating func sample() -> HKObject? {
        var kind: Kind?
        var uuid: UUID?
        var identifier: String?
        var start: Date?
        var end: Date?
        var quantity: HKQuantity?
        var value: Int?
        var revision: HKSourceRevision?
        var device: HKDevice?
        var metadata: [String: HKMetadataValue]?
        let complete = members { key, reader in
            switch key {
            case "kind":
                let text = reader.string()
                return Self.fill(
                    &kind,
                    text == "quantitySample" ? .quantity : text == "categorySample" ? .category : nil
                )
            case "uuid": return Self.fill(&uuid, reader.string().flatMap(UUID.init(text:)))
            case "type": return Self.fill(&identifier, reader.string())
            case "startDate": return Self.fill(&start, reader.string().flatMap(ISO8601.parse))
            case "endDate": return Self.fill(&end, reader.string().flatMap(ISO8601.parse))
            case "quantity": return Self.fill(&quantity, reader.quantity())
            case "value": return Self.fill(&value, reader.integer())
            case "sourceRevision": return Self.fill(&revision, reader.revision())
            case "device": return Self.fill(&device, reader.device())
            case "metadata": return Self.fill(&metadata, reader.metadata())
            default: return false
            }
        }
        guard complete, let kind, let uuid, let identifier, let start, let end else { return nil }
        guard let fields = try? SampleFields.given(start, end, uuid, revision ?? .local, device, metadata ?? [:]) else {
            return nil
        }
        switch kind {
        case .quantity:
            guard value == nil, let quantity, let type = HKObjectType.type(forIdentifier: identifier) as? HKQuantityType
            else { return nil }
            return try? HKQuantitySample.make(type: type, quantity: quantity, fields)
        case .category:
            guard quantity == nil, let value,
                let type = HKObjectType.type(forIdentifier: identifier) as? HKCategoryType
            else { return nil }
            return try? HKCategorySample.make(type: type, value: value, fields)
        }
    }

    /// `{"value": number, "unit": "…"}`, the value finite.
    private mutating func quantity() -> HKQuantity? {
        var value: Double?
        var unit: HKUnit?
        let complete = members { key, reader in
            switch key {
            case "value": return Self.fill(&value, reader.number().flatMap { $0.isFinite ? $0 : nil })
            case "unit": return Self.fill(&unit, reader.string().flatMap { try? HKUnit.parse($0) })
            default: return false
            }
        }
        guard complete, let value, let unit else { return nil }
        return HKQuantity(unit: unit, doubleValue: value)
    }

    /// `{"source": {"name", "bundleIdentifier"}, "version"?, "productType"?,
    /// "operatingSystemVersion"?}`, as `HKSourceRevision`'s decoder reads it.
    private mutating func revision() -> HKSourceRevision? {
        var source: HKSource?
        var version: String?
        var productType: String?
        var system: OperatingSystemVersion?
        let complete = members { key, reader in
            switch key {
            case "source": return Self.fill(&source, reader.source())
            case "version": return Self.fill(&version, reader.boundedString())
            case "productType": return Self.fill(&productType, reader.boundedString())
            case "operatingSystemVersion":
                return Self.fill(&system, reader.string().flatMap(HKSourceRevision.systemVersion))
            default: return false
            }
        }
        guard complete, let source else { return nil }
        return HKSourceRevision(
            source: source,
            version: version,
            productType: productType,
            operatingSystemVersion: system ?? OperatingSystemVersion(majorVersion: 0, minorVersion: 0, patchVersion: 0)
        )
    }

    /// `{"name": "…", …}` with `HKDevice`'s eight fields, each at most once.
    private mutating func device() -> HKDevice? {
        var values = [String?](repeating: nil, count: HKDevice.jsonFields.count)
        let complete = members { key, reader in
            guard let position = HKDevice.jsonFields.firstIndex(of: key) else { return false }
            return Self.fill(&values[position], reader.boundedString())
        }
        return complete ? HKDevice(properties: values) : nil
    }

    /// `{"key": tagged value, …}`, each key once.
    private mutating func metadata() -> [String: HKMetadataValue]? {
        var values: [String: HKMetadataValue] = [:]
        let complete = members { key, reader in
            guard values[key] == nil, let value = reader.metadataValue() else { return false }
            values[key] = value
            return true
        }
        return complete ? values : nil
    }

    /// A tagged value naming one kind, as `HKMetadataValue`'s decoder reads
    /// it (and checks it).
    private mutating func metadataValue() -> HKMetadataValue? {
        var value: HKMetadataValue?
        let complete = members { key, reader in
            guard value == nil else { return false }
            switch key {
            case "string": value = reader.string().map { .string($0) }
            case "integer": value = reader.integer().flatMap { Int64(exactly: $0) }.map { .integer($0) }
            case "double": value = reader.number().flatMap { $0.isFinite ? .double($0) : nil }
            case "bool": value = reader.bool().map { .bool($0) }
            case "date": value = reader.string().flatMap(ISO8601.parse).map { .date($0) }
            case "quantity": value = reader.quantity().map { .quantity($0) }
            default: return false
            }
            return value != nil
        }
        guard complete, let value, (try? value.checked(key: "metadata")) != nil else { return nil }
        return value
    }

    private mutating func source() -> HKSource? {
        var name: String?
        var bundle: String?
        let complete = members { key, reader in
            switch key {
            case "name": return Self.fill(&name, reader.boundedString())
            case "bundleIdentifier": return Self.fill(&bundle, reader.boundedString())
            default: return false
            }
        }
        guard complete, let name, let bundle else { return nil }
        return HKSource(name: name, bundleIdentifier: bundle)
    }

    /// Sets a member's slot: `false` when the value did not read (the
    /// batch is then left to JSONDecoder) or the member came twice.
    private static func fill<Value>(_ slot: inout Value?, _ value: Value?) -> Bool {
        guard slot == nil, let value else { return false }
        slot = value
        return true
    }

    // MARK: JSON

    /// Reads an object's members, calling `member` with each key and the
    /// reader positioned at its value (which `member` must read); `false`
    /// when the object is malformed or `member` refuses.
    private mutating func members(_ member: (String, inout FastSampleReader) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")), member(key, &self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// A string without escapes or control characters, valid UTF-8.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let first = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: bytes[first..<index], as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    private mutating func boundedString() -> String? {
        string().flatMap { $0.utf8.count <= JSONStrings.maximumLength ? $0 : nil }
    }

    /// A number in JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func numberText() -> (text: String, isInteger: Bool)? {
        skipSpace()
        let first = index
        _ = takeRaw(UInt8(ascii: "-"))
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { return nil }
        }
        var isInteger = true
        if takeRaw(UInt8(ascii: ".")) {
            isInteger = false
            guard digits() > 0 else { return nil }
        }
        if takeRaw(UInt8(ascii: "e")) || takeRaw(UInt8(ascii: "E")) {
            isInteger = false
            if !takeRaw(UInt8(ascii: "+")) { _ = takeRaw(UInt8(ascii: "-")) }
            guard digits() > 0 else { return nil }
        }
        return (String(decoding: bytes[first..<index], as: UTF8.self), isInteger)
    }

    /// A number that fits a `Double`, as `JSONDecoder` reads it: one that
    /// is not 0 but rounds to 0 (`1e-400`) does not, and is left to it.
    private mutating func number() -> Double? {
        guard let number = numberText(), let value = Double(number.text) else { return nil }
        if value == 0,
            number.text.prefix(while: { $0 != "e" && $0 != "E" }).contains(where: { ("1"..."9").contains($0) })
        {
            return nil
        }
        return value
    }

    /// An integer literal that fits an `Int` (no fraction, no exponent).
    private mutating func integer() -> Int? {
        guard let number = numberText(), number.isInteger else { return nil }
        return Int(number.text)
    }

    /// `true` or `false`.
    private mutating func bool() -> Bool? {
        skipSpace()
        if matches("true") {
            index += 4
            return true
        }
        if matches("false") {
            index += 5
            return false
        }
        return nil
    }

    /// Whether the bytes at `index` spell `word`.
    private func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        return word.withUTF8Buffer { word in (0..<count).allSatisfy { bytes[index + $0] == word[$0] } }
    }

    private mutating func digits() -> Int {
        let first = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - first
    }

    /// Skips JSON whitespace, then takes `byte` if it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        return takeRaw(byte)
    }

    private mutating func takeRaw(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Whether only whitespace is left.
    private mutating func end() -> Bool {
        skipSpace()
        return index == bytes.count
    }
}
