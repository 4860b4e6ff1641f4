/// Whole top-level elements of an export, as the reader hands them over:
/// every element's name and depth, and its attribute values as bytes in one
/// buffer. Nothing is turned into a Swift value until a consumer asks.
final class ElementBatch: Sendable {
    struct Element: Sendable {
        var name: ExportName
        /// 2 for a top-level element (a child of `HealthData`), 3 for its
        /// children, 4 for theirs.
        var depth: UInt8
        var attributeCount: UInt16
        var firstAttribute: UInt32
        /// The line of the file where the element starts.
        var line: UInt32
    }

    struct Attribute: Sendable {
        var name: ExportName
        var start: UInt32
        var count: UInt32
    }

    let names: NameTable
    let elements: [Element]
    let attributes: [Attribute]
    let bytes: [UInt8]

    init(names: NameTable, elements: [Element], attributes: [Attribute], bytes: [UInt8]) {
        self.names = names
        self.elements = elements
        self.attributes = attributes
        self.bytes = bytes
    }

    /// The top-level elements, each with what is nested in it.
    var topLevel: [ExportElement] {
        var result: [ExportElement] = []
        var index = 0
        while index < elements.count {
            let element = ExportElement(batch: self, index: index)
            result.append(element)
            index = element.end
        }
        return result
    }
}

/// One element of a batch and what is nested in it, read in place.
struct ExportElement: Sendable {
    let batch: ElementBatch
    let index: Int

    var name: ExportName { batch.elements[index].name }
    var nameText: String { batch.names[name] }
    var line: Int { Int(batch.elements[index].line) }
    var depth: UInt8 { batch.elements[index].depth }

    /// The index after this element's last descendant.
    var end: Int {
        let depth = batch.elements[index].depth
        var next = index + 1
        while next < batch.elements.count, batch.elements[next].depth > depth { next += 1 }
        return next
    }

    /// The direct children, in document order.
    var children: [ExportElement] {
        let childDepth = depth + 1
        var result: [ExportElement] = []
        let end = self.end
        var next = index + 1
        while next < end {
            if batch.elements[next].depth == childDepth { result.append(ExportElement(batch: batch, index: next)) }
            next += 1
        }
        return result
    }

    /// The direct children named `name`.
    func children(_ name: ExportName) -> [ExportElement] {
        children.filter { $0.name == name }
    }

    /// The attributes' names, in the order of the file.
    var attributeNames: [ExportName] {
        let element = batch.elements[index]
        let first = Int(element.firstAttribute)
        return (first..<first + Int(element.attributeCount)).map { batch.attributes[$0].name }
    }

    /// The bytes of attribute `name`, or `nil` when the element has none.
    func bytes(_ name: ExportName) -> ArraySlice<UInt8>? {
        let element = batch.elements[index]
        let first = Int(element.firstAttribute)
        for position in first..<first + Int(element.attributeCount) where batch.attributes[position].name == name {
            let attribute = batch.attributes[position]
            return batch.bytes[Int(attribute.start)..<Int(attribute.start) + Int(attribute.count)]
        }
        return nil
    }

    /// Attribute `name` as text (the reader checked it is UTF-8).
    subscript(name: ExportName) -> String? {
        bytes(name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Attribute `name` as a number; `nil` when absent or not a number.
    func number(_ name: ExportName) -> Double? {
        bytes(name).flatMap(ExportNumber.parse)
    }

    /// The `key`/`value` pairs of the direct `MetadataEntry` children.
    var metadata: [(key: String, value: String)] {
        children(.metadataEntry).compactMap { entry in
            guard let key = entry[.key], let value = entry[.value] else { return nil }
            return (key, value)
        }
    }
}
