import Anchorage

/// The device descriptions of an export, as `HKDevice` prints itself:
/// `<<HKDevice: 0x2835c5e00>, name:Apple Watch, manufacturer:Apple Inc.,
/// model:Watch, hardware:Watch3,4, software:5.2.1>`.
enum ExportDevice {
    static let fields = [
        "name", "manufacturer", "model", "hardware", "firmware", "software", "localIdentifier", "UDIDeviceIdentifier",
    ]

    /// The device, or `nil` when the text names no known field.
    static func parse(_ text: String) -> HKDevice? {
        var values: [String: String] = [:]
        // Split at ", field:" so that values may hold commas (hardware:iPhone10,4).
        var rest = Substring(text)
        var current: String?
        while !rest.isEmpty {
            var next: (range: Range<Substring.Index>, field: String)?
            for field in fields {
                if let range = rest.range(of: ", " + field + ":"),
                    range.lowerBound < (next?.range.lowerBound ?? rest.endIndex)
                {
                    next = (range, field)
                }
            }
            let valueEnd = next?.range.lowerBound ?? rest.endIndex
            if let current {
                var value = String(rest[..<valueEnd])
                if next == nil, value.hasSuffix(">") { value.removeLast() }
                values[current] = value
            }
            guard let next else { break }
            current = next.field
            rest = rest[next.range.upperBound...]
        }
        guard !values.isEmpty else { return nil }
        return HKDevice(
            name: values["name"],
            manufacturer: values["manufacturer"],
            model: values["model"],
            hardwareVersion: values["hardware"],
            firmwareVersion: values["firmware"],
            softwareVersion: values["software"],
            localIdentifier: values["localIdentifier"],
            udiDeviceIdentifier: values["UDIDeviceIdentifier"]
        )
    }
}
