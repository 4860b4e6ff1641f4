import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an export with Foundation's streaming `XMLParser` on a thread of
/// its own and hands over its top-level elements in batches. The thread
/// waits while two batches are unconsumed, so memory stays bounded by the
/// batch size whatever the size of the file.
final class ExportReader: NSObject, XMLParserDelegate, @unchecked Sendable {
    // @unchecked: the parser state is touched only on the parsing thread;
    // the hand-over goes through `slots` and the stream.

    private let url: URL
    private let batchSize: Int
    private var continuation: AsyncThrowingStream<[ExportElement], any Error>.Continuation?
    private let slots = DispatchSemaphore(value: 2)
    private let cancelled = AtomicFlag()
    private var batch: [ExportElement] = []
    private var stack: [ExportElement] = []
    private var depth = 0
    /// Bytes read so far, for progress.
    let bytesRead = AtomicCounter()

    init(url: URL, batchSize: Int) {
        self.url = url
        self.batchSize = batchSize
    }

    /// The elements in batches; iterating to the end reads the whole file.
    func elements() -> AsyncThrowingStream<[ExportElement], any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [ExportElement].self)
        self.continuation = continuation
        continuation.onTermination = { [self] _ in
            cancelled.set()
            slots.signal()
        }
        let thread = Thread { [self] in run() }
        thread.name = "anchorage.import.reader"
        thread.start()
        return stream
    }

    /// Marks one batch as consumed, letting the reader go on.
    func consumed() {
        slots.signal()
    }

    private func run() {
        guard FileManager.default.isReadableFile(atPath: url.path), let stream = InputStream(url: url) else {
            continuation?.finish(throwing: ImportError(.unreadable, "the file \(url.path) cannot be opened"))
            return
        }
        let counting = CountingInputStream(stream, counter: bytesRead)
        let parser = XMLParser(stream: counting)
        parser.shouldResolveExternalEntities = false
        parser.delegate = self
        _ = parser.parse()
        if cancelled.isSet { return }
        // A file cut short parses "successfully" but leaves an error behind.
        if let error = parser.parserError {
            continuation?.finish(
                throwing: ImportError(
                    .malformed,
                    "the file is not a well-formed Health export: its XML is cut short or broken near line "
                        + "\(parser.lineNumber) (parser error \((error as NSError).code)); export it again from the Health app"
                )
            )
            return
        }
        flush()
        continuation?.finish()
    }

    private func flush() {
        guard !batch.isEmpty, !cancelled.isSet else { return }
        slots.wait()
        guard !cancelled.isSet else { return }
        continuation?.yield(batch)
        batch = []
    }

    // MARK: XMLParserDelegate

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        if cancelled.isSet {
            parser.abortParsing()
            return
        }
        switch depth {
        case 1:
            return  // <HealthData>
        case 2:
            stack = [ExportElement(name: elementName, attributes: attributes)]
        default:
            guard !stack.isEmpty else { return }
            switch elementName {
            case "MetadataEntry":
                if let key = attributes["key"], let value = attributes["value"] {
                    stack[stack.count - 1].metadata.append((key, value))
                }
            case "Record" where depth == 3:
                stack.append(ExportElement(name: elementName, attributes: attributes))
            case "WorkoutEvent" where depth == 3:
                stack[0].events.append(attributes)
            case "WorkoutStatistics" where depth == 3:
                stack[0].statistics.append(attributes)
            default:
                break
            }
        }
    }

    func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?
    ) {
        defer { depth -= 1 }
        if depth == 3, elementName == "Record", stack.count == 2 {
            let record = stack.removeLast()
            stack[0].records.append(record)
        } else if depth == 2, let element = stack.first {
            stack = []
            batch.append(element)
            if batch.count >= batchSize { flush() }
        }
    }
}

/// Where an import failed.
public struct ImportError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// The file cannot be opened.
        case unreadable
        /// The file is not well-formed XML.
        case malformed
    }

    public let code: Code
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
