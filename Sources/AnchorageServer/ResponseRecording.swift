import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// A test hook: with `ANCHORAGE_TEST_RESPONSES=FILE` in a node's
/// environment, every answer it sends is appended to `FILE` as one JSON
/// line (method, path, status, content type, and a JSON body), for
/// `Scripts/check-responses` to validate against docs/openapi.json. Every
/// node a test starts — in the test process or as an `anchorage serve`
/// child, which inherits the variable — records, so the whole suite's
/// answers are checked against the document. Without the variable nothing
/// is read or written.
///
/// ```sh
/// ANCHORAGE_TEST_RESPONSES=/tmp/answers.jsonl swift test && Scripts/check-responses /tmp/answers.jsonl
/// ```
final class ResponseRecorder: Sendable {
    /// The variable that turns recording on.
    static let variable = "ANCHORAGE_TEST_RESPONSES"
    /// The recorder of this process, if the variable is set.
    static let shared: ResponseRecorder? = ProcessInfo.processInfo.environment[variable].flatMap {
        $0.isEmpty ? nil : ResponseRecorder(path: $0)
    }
    /// Bodies past this size are recorded without their bytes.
    static let largestBody = 1 << 20

    private let descriptor: Int32
    private let next = Atomic<Int>(0)
    private let process = ProcessInfo.processInfo.processIdentifier

    private init?(path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// A new record's id, unique across the processes that share the file.
    func newID() -> String {
        "\(process)-\(next.add(1, ordering: .relaxed).newValue)"
    }

    /// Appends one record as a line; a later line of the same id replaces
    /// it (a body that came in several buffers).
    func write(id: String, method: String, path: String, status: Int, type: String, body: [UInt8]?) {
        var record: [String: Any] = ["id": id, "method": method, "path": path, "status": status, "type": type]
        if let body {
            if body.count > Self.largestBody {
                record["truncated"] = true
            } else {
                record["body"] = String(decoding: body, as: UTF8.self)
            }
        }
        guard var line = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        line.append(0x0a)
        // One write per line: appends from several processes do not interleave.
        _ = line.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
    }
}

extension ResponseRecorder {
    /// The JSON body of the answer being made, caught where it is made
    /// (``JSONBodies``, ``APIError``), so the recording never wraps a body.
    final class Capture: Sendable {
        let body = Mutex<[UInt8]?>(nil)
    }

    /// The capture of the request being answered, while one is recorded.
    @TaskLocal static var capture: Capture?

    /// Notes `body` as the JSON body of the answer being made, when
    /// answers are recorded.
    static func note(_ body: ByteBuffer) {
        guard shared != nil, let capture else { return }
        capture.body.withLock { $0 = Array(body.readableBytesView) }
    }
}

/// Records each answer with ``ResponseRecorder`` (the outermost middleware,
/// so errors are recorded as the client gets them).
struct ResponseRecordingMiddleware: RouterMiddleware {
    typealias Context = NodeContext
    let recorder: ResponseRecorder

    func handle(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response {
        let capture = ResponseRecorder.Capture()
        let response = try await ResponseRecorder.$capture.withValue(capture) { try await next(request, context) }
        let type = response.headers[.contentType] ?? ""
        // Streams and other bodies: the status and type only.
        let json = type.contains("json") && !type.contains("ndjson")
        recorder.write(
            id: recorder.newID(),
            method: request.method.rawValue,
            path: request.uri.path,
            status: response.status.code,
            type: type,
            body: json ? capture.body.withLock { $0 } : nil
        )
        return response
    }
}
