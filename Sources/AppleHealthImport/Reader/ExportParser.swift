import CLibXML2

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
        /// Well-formedness errors read past (libxml2's recovering mode)
        /// before the file is refused.
        static let recoveredErrors = 100_000
    }

    private let context: xmlParserCtxtPtr
    private let collector: UnsafeMutablePointer<ElementCollector>
    private var filter = PrologueFilter()
    private var filtered: [UInt8] = []

    /// Elements of any depth read so far.
    var elementsRead: Int { collector.pointee.elementsRead }
    /// The prologue's `HealthKit Export Version`, once the body began.
    var exportVersion: Int? { filter.exportVersion }
    /// Control characters dropped from the body.
    var droppedControlCharacters: Int { filter.droppedControlCharacters }
    /// Attribute names with spaces mended (exports without a DTD), and the
    /// line of the first.
    var mendedNames: (count: Int, firstLine: Int?) {
        (filter.repair?.mended ?? 0, filter.repair?.firstMendedLine)
    }
    /// Places where the file is not well-formed and reading went on, and
    /// the line of the first.
    var recovered: (count: Int, firstLine: Int?) {
        (collector.pointee.recovered, collector.pointee.firstRecoveredLine)
    }

    /// A parser handing each `batchSize` top-level elements to `deliver`,
    /// which returns `false` to stop the parse.
    init(batchSize: Int, deliver: @escaping (ElementBatch) -> Bool) throws(ImportError) {
        let collector = UnsafeMutablePointer<ElementCollector>.allocate(capacity: 1)
        collector.initialize(to: ElementCollector(batchSize: max(1, batchSize), deliver: deliver))
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, name, _, _, _, _, count, _, attributes in
            guard let context, let name else { return }
            context.assumingMemoryBound(to: ElementCollector.self).pointee
                .startElement(name, count: Int(count), attributes: attributes)
        }
        handler.endElementNs = { context, _, _, _ in
            context?.assumingMemoryBound(to: ElementCollector.self).pointee.depth -= 1
        }
        handler.serror = { context, error in
            guard let context, let error else { return }
            context.assumingMemoryBound(to: ElementCollector.self).pointee.record(error.pointee)
        }
        guard let context = xmlCreatePushParserCtxt(&handler, collector, nil, 0, nil) else {
            collector.pointee.release()
            collector.deinitialize(count: 1)
            collector.deallocate()
            throw ImportError(.unreadable, "the XML parser could not be created (out of memory?)")
        }
        collector.pointee.context = context
        self.context = context
        self.collector = collector
        // Recovering: a file that is not well-formed in places is read on
        // (ElementCollector.record counts those places).
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_RECOVER.rawValue)
        try check(xmlCtxtUseOptions(context, options), "xmlCtxtUseOptions")
    }

    deinit {
        xmlFreeParserCtxt(context)
        collector.pointee.release()
        collector.deinitialize(count: 1)
        collector.deallocate()
    }

    /// Parses the next bytes of the file.
    func parse(_ chunk: UnsafeRawBufferPointer) throws(ImportError) {
        if !filter.needsFiltering(chunk) {
            let bytes = chunk.baseAddress?.assumingMemoryBound(to: CChar.self)
            return try check(xmlParseChunk(context, bytes, Int32(chunk.count), 0), "xmlParseChunk")
        }
        filtered.removeAll(keepingCapacity: true)
        try filter.filter(chunk, into: &filtered)
        guard !filtered.isEmpty else { return }
        let code = filtered.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmlParseChunk(context, $0.baseAddress, Int32($0.count), 0) }
        }
        try check(code, "xmlParseChunk")
    }

    /// Reads all of `source`, then ends the parse; `read` is told each
    /// chunk's size and returns `false` to stop early (nothing more is
    /// parsed then, and the last batch is not delivered).
    func parse(_ source: ExportSource, read: (Int) -> Bool = { _ in true }) throws(ImportError) {
        var stopped = false
        try source.read { chunk throws(ImportError) in
            try parse(chunk)
            stopped = !read(chunk.count)
            return !stopped
        }
        if !stopped { try finish() }
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
        collector.pointee.finishing = true
        try check(xmlParseChunk(context, nil, 0, 1), "xmlParseChunk")
        if !collector.pointee.elements.isEmpty {
            let batch = collector.pointee.makeBatch()
            _ = collector.pointee.deliver(batch)
        }
    }

    /// Throws the first error libxml2 or a limit reported, or one for a
    /// failed `code`.
    private func check(_ code: Int32, _ function: StaticString) throws(ImportError) {
        if let failure = collector.pointee.failure { throw failure }
        // In recovering mode libxml2 keeps returning the last error it
        // read past; the collector counted it.
        guard code != 0, collector.pointee.recovered == 0 else { return }
        throw ImportError(.malformed, "the XML parser failed in \(function) (libxml2 error \(code))")
    }

    /// Whether libxml2 reads on after `error` in recovering mode without
    /// the import losing more than the damaged element: errors of syntax,
    /// not of encoding, entities or size.
    static func isRecoverable(_ error: xmlError) -> Bool {
        switch Int(error.code) {
        case Int(XML_ERR_INVALID_CHAR.rawValue), Int(XML_ERR_INVALID_ENCODING.rawValue),
            Int(XML_ERR_UNDECLARED_ENTITY.rawValue), Int(XML_WAR_UNDECLARED_ENTITY.rawValue),
            Int(XML_ERR_ENTITY_LOOP.rawValue), Int(XML_ERR_INTERNAL_ERROR.rawValue),
            Int(XML_ERR_NO_MEMORY.rawValue), Int(XML_ERR_DOCUMENT_EMPTY.rawValue),
            Int(XML_ERR_UNKNOWN_ENCODING.rawValue), Int(XML_ERR_UNSUPPORTED_ENCODING.rawValue),
            Int(XML_ERR_NAME_TOO_LONG.rawValue):
            return false
        case Int(XML_ERR_ATTRIBUTE_NOT_FINISHED.rawValue):
            // Also what libxml2 reports for a value past its 10 MB limit.
            return !(error.message.map { String(cString: $0) }?.contains("too long") ?? false)
        default:
            return true
        }
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
