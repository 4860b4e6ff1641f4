extension PayloadDecoder {
    /// A state of mind after its common fields (kind 9).
    mutating func readStateOfMind(
        _ reader: inout PayloadReader,
        _ fields: consuming SampleFields
    ) throws(HKError)
        -> HKStateOfMind
    {
        let kindCode = try reader.count("the state of mind's kind", limit: 100)
        guard let kind = HKStateOfMind.Kind(rawValue: kindCode) else {
            throw .invalid("MIND-1", "the state of mind's kind is unknown")
        }
        let valence = try reader.double("the valence")
        var labels: [HKStateOfMind.Label] = []
        for _ in 0..<(try reader.count("the number of labels", limit: 64)) {
            guard let label = HKStateOfMind.Label(rawValue: try reader.count("a label", limit: 1_000)) else {
                throw .invalid("MIND-1", "a state of mind's label is unknown")
            }
            labels.append(label)
        }
        var associations: [HKStateOfMind.Association] = []
        for _ in 0..<(try reader.count("the number of associations", limit: 64)) {
            guard
                let association = HKStateOfMind.Association(rawValue: try reader.count("an association", limit: 1_000))
            else { throw .invalid("MIND-1", "a state of mind's association is unknown") }
            associations.append(association)
        }
        return try HKStateOfMind.make(kind: kind, valence: valence, labels: labels, associations: associations, fields)
    }
}
