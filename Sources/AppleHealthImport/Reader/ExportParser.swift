import CLibXML2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libxml2's SAX2 push parser, fed an export in chunks, collecting whole
/// top-level elements into ``ElementBatch``es.
///
/// No tree is built: each start tag's name and attribute values are copied
/// as bytes into the batch being filled. The parser runs with `XML_PARSE_NONET`
/// and without entity substitution or DTD loading, and the
/// ``PrologueFilter`` removes the DTD before the parser sees it. libxml2's
/// own limits stay on (no `XML_PARSE_HUGE`): names, values and the look-ahead
/// for one tag are bounded by it, the nesting of elements and the size of a
/// top-level element by the limits below. Not `Sendable`: one thread feeds it.
final class ExportParser {
    /// Limits no real export comes near; past them the file is refused.
    enum Limits {
        /// Elements nested in one top-level element (a workout's events and
        /// statistics, a record's beats).
        static let elementsPerTopLevel = 200_000
        /// Attribute bytes in one top-level element.
        static let bytesPerTopLevel = 32 << 20
        /// Attributes on one element.
        static let attributesPerElement = 256
        /// Bytes in one element or attribute name.
        static let nameLength = 256
        /// Distinct element and attribute names in one file.
        static let distinctNames = 2_000
        /// Deepest element recorded (`HealthData` is 1): deeper ones are
        /// skipped.
        static let recordedDepth: UInt8 = 4
    }

    private let context: xmlParserCtxtPtr
    private var filter = PrologueFilter()
    private var filtered: [UInt8] = []
    private var failure: ImportError?
    private var finishing = false
    private let batchSize: Int
    private let deliver: (ElementBatch) -> Bool

    // The batch being filled.
    private var names = NameTable()
    private var pointerNames: [UnsafeRawPointer: ExportName] = [:]
    private var elements: [ElementBatch.Element] = []
    private var attributes: [ElementBatch.Attribute] = []
    private var bytes: [UInt8] = []
    private var topLevelCount = 0
    /// Where the current top-level element starts in `elements` and `bytes`.
    private var topLevelStart = (elements: 0, bytes: 0)
    private var depth = 0

    /// Top-level elements read so far.
    private(set) var topLevelRead = 0
    /// Elements of any depth read so far.
    private(set) var elementsRead = 0

    /// The prologue's `HealthKit Export Version`, once the body began.
    var exportVersion: Int? { filter.exportVersion }
    /// Control characters dropped from the body.
    var droppedControlCharacters: Int { filter.droppedControlCharacters }

    /// A parser handing each `batchSize` top-level elements to `deliver`,
    /// which returns `false` to stop the parse.
    init(batchSize: Int, deliver: @escaping (ElementBatch) -> Bool) throws(ImportError) {
        self.batchSize = max(1, batchSize)
        self.deliver = deliver
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, name, _, _, _, _, count, _, attributes in
            guard let context, let name else { return }
            Unmanaged<ExportParser>.fromOpaque(context).takeUnretainedValue()
                .startElement(name, count: Int(count), attributes: attributes)
        }
        handler.endElementNs = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<ExportParser>.fromOpaque(context).takeUnretainedValue().depth -= 1
        }
        handler.serror = { context, error in
            guard let context, let error else { return }
            Unmanaged<ExportParser>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
        }
        // The parser is created before `self` is complete: its user data is
        // set right after.
        guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else {
            throw ImportError(.unreadable, "the XML parser could not be created (out of memory?)")
        }
        self.context = context
        context.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue)
        try check(xmlCtxtUseOptions(context, options), "xmlCtxtUseOptions")
    }

    deinit {
        xmlFreeParserCtxt(context)
    }

    /// Parses the next bytes of the file.
    func parse(_ chunk: UnsafeRawBufferPointer) throws(ImportError) {
        filtered.removeAll(keepingCapacity: true)
        try filter.filter(chunk, into: &filtered)
        guard !filtered.isEmpty else { return }
        let code = filtered.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmlParseChunk(context, $0.baseAddress, Int32($0.count), 0) }
        }
        try check(code, "xmlParseChunk")
    }

    /// Ends the parse at the end of the file and delivers the last batch.
    func finish() throws(ImportError) {
        guard filter.inBody else {
            throw ImportError(
                .notAnExport,
                "the file has no HealthData element: it is not the export.xml of the Health app (give the "
                    + "export.zip, or the export.xml inside its apple_health_export folder)"
            )
        }
        finishing = true
        try check(xmlParseChunk(context, nil, 0, 1), "xmlParseChunk")
        if !elements.isEmpty { _ = deliver(makeBatch()) }
    }

    /// Throws the first error libxml2 reported, or one for a failed `code`.
    private func check(_ code: Int32, _ function: StaticString) throws(ImportError) {
        if let failure { throw failure }
        guard code != 0 else { return }
        throw ImportError(.malformed, "the XML parser failed in \(function) (libxml2 error \(code))")
    }

    // MARK: SAX events

    private func startElement(
        _ name: UnsafePointer<xmlChar>,
        count: Int,
        attributes values: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        depth += 1
        elementsRead += 1
        guard failure == nil, depth >= 2, depth <= Limits.recordedDepth else { return }
        if depth == 2 {
            topLevelRead += 1
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
                line: UInt32(clamping: context.pointee.input?.pointee.line ?? 0)
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
    private func append(_ key: ExportName, _ value: UnsafeBufferPointer<xmlChar>) {
        let start = bytes.count
        if value.contains(0x26) {
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
    private func number(of name: UnsafePointer<xmlChar>) -> ExportName? {
        if let known = pointerNames[UnsafeRawPointer(name)] { return known }
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
        return number
    }

    /// Hands over the top-level elements collected so far, all complete.
    private func makeBatch() -> ElementBatch {
        let batch = ElementBatch(names: names, elements: elements, attributes: attributes, bytes: bytes)
        elements.removeAll(keepingCapacity: true)
        attributes.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        topLevelCount = 0
        topLevelStart = (0, 0)
        return batch
    }

    // MARK: Errors

    private func tooLarge(_ what: String) -> ImportError {
        ImportError(
            .tooLarge,
            "the file holds \(what), which no Health export does: it is not an export, or it is damaged",
            line: Int(context.pointee.input?.pointee.line ?? 0),
            column: Int(context.pointee.input?.pointee.col ?? 0)
        )
    }

    /// Stops the parse, keeping the first reason.
    private func stop(_ error: ImportError?) {
        if failure == nil, let error { failure = error }
        xmlStopParser(context)
    }

    /// Keeps libxml2's first error, in words; warnings are ignored. The
    /// message never quotes the file's bytes.
    private func record(_ error: xmlError) {
        guard failure == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        failure = Self.importError(error, atEnd: finishing)
    }

    static func importError(_ error: xmlError, atEnd: Bool) -> ImportError {
        let line = Int(error.line)
        let column = Int(error.int2)
        let code = Int(error.code)
        // libxml2's first line names the rule; later lines may quote bytes.
        let detail =
            error.message.map { String(cString: $0) }?
            .split(separator: "\n", maxSplits: 1).first.map { String($0.prefix(160)) } ?? "error \(code)"
        let message: String
        var kind = ImportError.Code.malformed
        switch code {
        case _ where atEnd:
            message = "the file ends in the middle of the export: it was cut short (copy or export it again)"
        case Int(XML_ERR_INVALID_CHAR.rawValue), Int(XML_ERR_INVALID_ENCODING.rawValue):
            message = "the file holds bytes that are not UTF-8 text: it is damaged (export it again)"
        case Int(XML_ERR_UNDECLARED_ENTITY.rawValue), Int(XML_WAR_UNDECLARED_ENTITY.rawValue):
            message =
                "the file uses an entity reference (&name;) that Health exports never contain; "
                + "entities are not expanded, and the file was not imported further"
        case Int(XML_ERR_INTERNAL_ERROR.rawValue) where detail.contains("Huge input lookup"),
            Int(XML_ERR_ATTRIBUTE_NOT_FINISHED.rawValue) where detail.contains("too long"):
            kind = .tooLarge
            message = "the file holds a tag or value longer than 10 MB, which no Health export does"
        default:
            message = "the file is not well-formed XML (libxml2: \(detail))"
        }
        return ImportError(kind, message, line: line > 0 ? line : nil, column: column > 0 ? column : nil)
    }
}
