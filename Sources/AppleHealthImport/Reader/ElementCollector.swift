import CLibXML2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the SAX callbacks update while an export is parsed: the batch being
/// filled, the names met, the depth, the first error.
///
/// It lives behind a pointer that the callbacks receive as libxml2's user
/// data, so the millions of updates they make need neither reference
/// counting nor exclusivity checks. Limits are in ``ExportParser/Limits``.
struct ElementCollector {
    typealias Limits = ExportParser.Limits
    /// Slots of the name cache, a power of two.
    static let cacheSize = 256

    /// The parser context, for line numbers and for stopping.
    var context: xmlParserCtxtPtr?
    /// The first error; once set, events are ignored.
    var failure: ImportError?
    /// Whether the last chunk (the end of the file) is being parsed.
    var finishing = false
    let batchSize: Int
    let deliver: (ElementBatch) -> Bool

    // The batch being filled.
    private var names = NameTable()
    private var pointerNames: [UnsafeRawPointer: ExportName] = [:]
    /// Recently met names by the address libxml2 interned them at.
    private var nameCache: UnsafeMutableBufferPointer<(address: UInt, name: ExportName)>
    private(set) var elements: [ElementBatch.Element] = []
    private var attributes: [ElementBatch.Attribute] = []
    private var bytes: [UInt8] = []
    private var topLevelCount = 0
    /// Where the current top-level element starts in `elements` and `bytes`.
    private var topLevelStart = (elements: 0, bytes: 0)
    var depth = 0

    /// Elements of any depth read so far.
    private(set) var elementsRead = 0

    init(batchSize: Int, deliver: @escaping (ElementBatch) -> Bool) {
        self.batchSize = batchSize
        self.deliver = deliver
        nameCache = .allocate(capacity: Self.cacheSize)
        nameCache.initialize(repeating: (0, ExportName(rawValue: 0)))
    }

    /// Frees the name cache; the collector is not used after.
    func release() {
        nameCache.deallocate()
    }

    mutating func startElement(
        _ name: UnsafePointer<xmlChar>,
        count: Int,
        attributes values: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        depth += 1
        elementsRead += 1
        guard failure == nil, depth >= 2, depth <= Limits.recordedDepth else { return }
        if depth == 2 {
            if topLevelCount >= batchSize || bytes.count >= 4 << 20 {
                let batch = makeBatch()
                guard deliver(batch) else { return stop(nil) }
            }
            topLevelCount += 1
            topLevelStart = (elements.count, bytes.count)
        } else if elements.count - topLevelStart.elements >= Limits.elementsPerTopLevel {
            return stop(tooLarge("an element holding more than \(Limits.elementsPerTopLevel) elements"))
        }
        guard count <= Limits.attributesPerElement else {
            return stop(tooLarge("an element with more than \(Limits.attributesPerElement) attributes"))
        }
        guard let elementName = number(of: name) else { return }
        elements.append(
            ElementBatch.Element(
                name: elementName,
                depth: UInt8(depth),
                attributeCount: UInt16(count),
                firstAttribute: UInt32(attributes.count),
                line: UInt32(clamping: context?.pointee.input?.pointee.line ?? 0)
            )
        )
        guard let values else { return }
        for index in 0..<count {
            // Five pointers per attribute: name, prefix, URI, value, end.
            guard let attributeName = values[5 * index], let start = values[5 * index + 3],
                let end = values[5 * index + 4], let key = number(of: attributeName)
            else { return }
            append(key, UnsafeBufferPointer(start: start, count: end - start))
        }
        if bytes.count - topLevelStart.bytes > Limits.bytesPerTopLevel {
            stop(tooLarge("an element whose values hold more than \(Limits.bytesPerTopLevel >> 20) MB"))
        }
    }

    /// Copies one attribute value. libxml2 hands `&` (written `&amp;` or
    /// `&#38;`) over as the five characters `&#38;` when it does not
    /// substitute entities; they are turned back into `&` here.
    private mutating func append(_ key: ExportName, _ value: UnsafeBufferPointer<xmlChar>) {
        let start = bytes.count
        // memchr: most values hold no `&`, and a byte loop cost more than the copy.
        if let base = value.baseAddress, memchr(base, 0x26, value.count) != nil {
            var index = 0
            let escaped: [UInt8] = Array("&#38;".utf8)
            while index < value.count {
                if value[index] == 0x26, index + 5 <= value.count,
                    escaped.withUnsafeBufferPointer({ $0.elementsEqual(value[index..<index + 5]) })
                {
                    bytes.append(0x26)
                    index += 5
                } else {
                    bytes.append(value[index])
                    index += 1
                }
            }
        } else {
            bytes.append(contentsOf: value)
        }
        attributes.append(ElementBatch.Attribute(name: key, start: UInt32(start), count: UInt32(bytes.count - start)))
    }

    /// The number of a name libxml2 interned: one dictionary look-up by
    /// address after the first time.
    private mutating func number(of name: UnsafePointer<xmlChar>) -> ExportName? {
        let address = UInt(bitPattern: name)
        let slot = Int(truncatingIfNeeded: (address >> 3) ^ (address >> 11)) & (Self.cacheSize - 1)
        if nameCache[slot].address == address { return nameCache[slot].name }
        if let known = pointerNames[UnsafeRawPointer(name)] {
            nameCache[slot] = (address, known)
            return known
        }
        let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
        guard length <= Limits.nameLength else {
            stop(tooLarge("an element or attribute name longer than \(Limits.nameLength) bytes"))
            return nil
        }
        guard names.count < Limits.distinctNames else {
            stop(tooLarge("more than \(Limits.distinctNames) different element and attribute names"))
            return nil
        }
        let text = String(decoding: UnsafeBufferPointer(start: name, count: length), as: UTF8.self)
        let number = names.number(of: text)
        pointerNames[UnsafeRawPointer(name)] = number
        nameCache[slot] = (address, number)
        return number
    }

    /// Hands over the top-level elements collected so far, all complete.
    mutating func makeBatch() -> ElementBatch {
        let batch = ElementBatch(names: names, elements: elements, attributes: attributes, bytes: bytes)
        elements.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        topLevelCount = 0
        topLevelStart = (0, 0)
        return batch
    }

    private func tooLarge(_ what: String) -> ImportError {
        ImportError(
            .tooLarge,
            "the file holds \(what), which no Health export does: it is not an export, or it is damaged",
            line: Int(context?.pointee.input?.pointee.line ?? 0),
            column: Int(context?.pointee.input?.pointee.col ?? 0)
        )
    }

    /// Stops the parse, keeping the first reason.
    mutating func stop(_ error: ImportError?) {
        if failure == nil, let error { failure = error }
        if let context { xmlStopParser(context) }
    }

    /// Errors libxml2 recovered from (the file is not well-formed there;
    /// reading went on after it), and the line of the first.
    private(set) var recovered = 0
    private(set) var firstRecoveredLine: Int?

    /// Keeps libxml2's first error that stops the import, in words;
    /// warnings are ignored. A well-formedness error in the middle of the
    /// file (the oldest exports wrote metadata keys with spaces as
    /// attribute names) is counted instead, and reading goes on in
    /// libxml2's recovering mode. What stops it: a file cut short, bytes
    /// that are not UTF-8, entity references, values past the limits. The
    /// message never quotes the file's bytes.
    mutating func record(_ error: xmlError) {
        guard failure == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let failure = ExportParser.importError(error, atEnd: finishing)
        guard !finishing, ExportParser.isRecoverable(error) else {
            self.failure = failure
            return
        }
        recovered += 1
        if firstRecoveredLine == nil, error.line > 0 { firstRecoveredLine = Int(error.line) }
        if recovered > Limits.recoveredErrors {
            self.failure = ImportError(
                .malformed,
                "the file is not well-formed XML in more than \(Limits.recoveredErrors) places: it is not a "
                    + "damaged Health export but something else",
                line: failure.line,
                column: failure.column
            )
        }
    }

}
