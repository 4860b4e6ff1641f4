import Crypto
import Foundation

extension ExportObjects {
    /// A version 8 uuid derived from the element's content: its first 48
    /// bits are the start date in milliseconds since 1970, as in a version 7
    /// uuid, and the rest comes from SHA-256 of the element's name,
    /// attributes, metadata, events and nested records, in a fixed order.
    ///
    /// The time prefix keeps the store's uuid index in time order: saving
    /// an export then touches a few index pages per batch instead of one
    /// random page per record (measured: about 3× the import rate).
    ///
    /// The hashed bytes are gathered in one buffer and hashed in one call:
    /// a call per attribute cost more than the hashing itself.
    ///
    /// A `numbered` element (a top-level one) whose content was seen
    /// before gets an identifier numbered by occurrence instead
    /// (``OccurrenceWindow``): identical records, workouts and correlations
    /// stay distinct objects. The occurrence is kept in ``occurrence`` for
    /// what the element holds: the identifiers of a second workout's routes
    /// and activities are numbered with it too, and a second correlation's
    /// records are the second of their identical top-level twins.
    mutating func identifier(of element: ExportElement, numbered: Bool = false) -> UUID {
        identifierBytes.removeAll(keepingCapacity: true)
        Self.gather(element, into: &identifierBytes, nested: false)
        var bytes = identifierBytes.withUnsafeBytes { Array(SHA256.hash(data: $0)) }
        if numbered {
            let key = bytes.withUnsafeBytes { raw in
                OccurrenceWindow.Key(
                    high: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                    low: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                )
            }
            occurrence = occurrences.occurrence(of: key) + 1
            if occurrence > 1 { numberedOccurrences += 1 }
        }
        if occurrence > 1 {
            identifierBytes.append(contentsOf: "occurrence \(occurrence)".utf8)
            identifierBytes.append(0)
            bytes = identifierBytes.withUnsafeBytes { Array(SHA256.hash(data: $0)) }
        }
        let start = element.bytes(.startDate).flatMap(ExportDate.parse) ?? Date(timeIntervalSince1970: 0)
        return Self.versionEight(bytes, at: start)
    }

    /// A version 8 uuid of a digest's first 16 bytes, its first 48 bits the
    /// milliseconds of `date` since 1970 (as in a version 7 uuid), so ids
    /// sort in time order in the store's index.
    static func versionEight(_ digest: [UInt8], at date: Date) -> UUID {
        var bytes = digest
        let milliseconds = UInt64(max(0, min(date.timeIntervalSince1970 * 1_000, Double(UInt64(1) << 47))))
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(index))) }
        return versionEight(bytes)
    }

    /// A version 8 uuid of the first 16 of `bytes`, as they are but for the
    /// version and variant bits.
    static func versionEight(_ bytes: [UInt8]) -> UUID {
        var bytes = bytes
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }

    /// Appends what identifiers hash, in the order they have always used:
    /// the element's name, its attributes sorted by name, its metadata
    /// entries, its workout events then statistics (attributes sorted),
    /// then its records; each part followed by a zero byte.
    private static func gather(_ element: ExportElement, into buffer: inout [UInt8], nested: Bool) {
        let names = element.batch.names
        func add(_ name: ExportName) {
            buffer.append(contentsOf: names[name].utf8)
            buffer.append(0)
        }
        func add(_ bytes: ArraySlice<UInt8>?) {
            if let bytes { buffer.append(contentsOf: bytes) }
            buffer.append(0)
        }
        let order = names.order
        let batch = element.batch
        /// The attributes by their names' byte order (a stable sort: a name
        /// given twice keeps the file's order), each name with the value of
        /// its first occurrence.
        func addAttributes(of element: ExportElement) {
            let header = batch.elements[element.index]
            let first = Int(header.firstAttribute)
            var positions = Array(first..<first + Int(header.attributeCount))
            // Insertion sort: a handful of attributes.
            for index in positions.indices.dropFirst() {
                let position = positions[index]
                let rank = order[Int(batch.attributes[position].name.rawValue)]
                var slot = index
                while slot > 0 && order[Int(batch.attributes[positions[slot - 1]].name.rawValue)] > rank {
                    positions[slot] = positions[slot - 1]
                    slot -= 1
                }
                positions[slot] = position
            }
            var groupFirst = 0
            for (index, position) in positions.enumerated() {
                let name = batch.attributes[position].name
                if index == 0 || batch.attributes[positions[index - 1]].name != name { groupFirst = position }
                let value = batch.attributes[groupFirst]
                add(name)
                add(batch.bytes[Int(value.start)..<Int(value.start) + Int(value.count)])
            }
        }
        add(element.name)
        addAttributes(of: element)
        let children = element.children
        for entry in children where entry.name == .metadataEntry {
            guard let key = entry.bytes(.key), let value = entry.bytes(.value) else { continue }
            add(key)
            add(value)
        }
        guard !nested else { return }
        for child in children where child.name == .workoutEvent { addAttributes(of: child) }
        for child in children where child.name == .workoutStatistics { addAttributes(of: child) }
        for child in children where child.name == .record { gather(child, into: &buffer, nested: true) }
    }
}
