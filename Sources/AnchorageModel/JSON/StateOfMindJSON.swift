import Foundation

extension HealthObject {
    /// Reads a state of mind: `stateOfMindKind`, `valence`, `labels` and
    /// `associations` (HealthKit raw values).
    package static func decodeStateOfMind(
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ fields: consuming SampleFields
    ) throws -> HKStateOfMind {
        guard let kind = HKStateOfMind.Kind(rawValue: try container.decode(Int.self, forKey: .stateOfMindKind)) else {
            throw HKError.invalid("MIND-1", "the state of mind's kind is unknown")
        }
        let labelValues = try container.decodeIfPresent([Int].self, forKey: .labels) ?? []
        let associationValues = try container.decodeIfPresent([Int].self, forKey: .associations) ?? []
        guard labelValues.count <= 64, associationValues.count <= 64 else {
            throw HKError.invalid("MIND-1", "a state of mind lists a label or an association twice")
        }
        var labels: [HKStateOfMind.Label] = []
        for (index, value) in labelValues.enumerated() {
            guard let label = HKStateOfMind.Label(rawValue: value) else {
                throw HKError.invalid("MIND-1", "label \(index + 1) is not a state of mind label HealthKit knows")
            }
            labels.append(label)
        }
        var associations: [HKStateOfMind.Association] = []
        for (index, value) in associationValues.enumerated() {
            guard let association = HKStateOfMind.Association(rawValue: value) else {
                throw HKError.invalid(
                    "MIND-1",
                    "association \(index + 1) is not a state of mind association HealthKit knows"
                )
            }
            associations.append(association)
        }
        return try HKStateOfMind.make(
            kind: kind,
            valence: try container.decode(Double.self, forKey: .valence),
            labels: labels,
            associations: associations,
            fields
        )
    }
}
