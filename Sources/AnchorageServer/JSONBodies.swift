import Anchorage
import Foundation
import HTTPTypes
import Hummingbird

/// JSON as the node reads and writes it: request bodies sent as
/// `application/json`, answers with sorted keys and unescaped slashes.
enum JSONBodies {
    /// The encoder of every JSON answer (`JSONEncoder` with sorted keys and
    /// slashes left as they are).
    static func encoder() -> JSONEncoder { CanonicalJSON.encoder() }

    /// An answer of `body`, which is JSON.
    static func response(_ body: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        ResponseRecorder.note(body)
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: body)
        )
    }

    /// An answer of `value` encoded as JSON, dates in ISO 8601.
    ///
    /// ```swift
    /// return try JSONBodies.response(encoding: receipt)
    /// ```
    static func response(encoding value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = encoder()
        encoder.dateEncodingStrategy = .iso8601
        return response(ByteBuffer(bytes: try encoder.encode(value)), status: status)
    }

    /// `{"<key>":<value>}`, as the answers holding one list are written.
    ///
    /// ```swift
    /// return try JSONBodies.response(wrapping: summaries, as: "activitySummaries")
    /// ```
    static func response(wrapping value: some Encodable, as key: String) throws -> Response {
        var buffer = ByteBuffer(string: "{\"\(key)\":")
        buffer.writeBytes(try encoder().encode(value))
        buffer.writeString("}")
        return response(buffer)
    }

    /// The body of a request that must be JSON, read up to the route's
    /// limit: any other declared `Content-Type` is `415 unsupportedMediaType`
    /// (`what` names what the body should hold).
    static func collect(_ request: Request, context: NodeContext, holding what: String) async throws -> Data {
        try requireJSON(request, holding: what)
        let bytes = try await request.body.collect(upTo: context.maximumBodyBytes)
        return Data(bytes.readableBytesView)
    }

    /// Hands the body of a request that must be JSON to `consume` chunk by
    /// chunk as it arrives, up to the route's limit (past it, `413
    /// bodyTooLarge` and the connection closes); the media type is checked
    /// as ``collect(_:context:holding:)`` checks it.
    ///
    /// ```swift
    /// var reader = SampleBatch.Reader()
    /// try await JSONBodies.stream(request, context: context, holding: "the samples") { chunk in
    ///     chunk.withUnsafeReadableBytes { reader.append($0) }
    /// }
    /// ```
    static func stream(
        _ request: Request,
        context: NodeContext,
        holding what: String,
        _ consume: (ByteBuffer) -> Void
    ) async throws {
        try requireJSON(request, holding: what)
        var received = 0
        for try await chunk in request.body {
            received += chunk.readableBytes
            guard received <= context.maximumBodyBytes else {
                throw APIError(
                    .contentTooLarge,
                    .bodyTooLarge,
                    "the request body is larger than this endpoint's limit of \(context.maximumBodyBytes) bytes"
                ).closingConnection()
            }
            consume(chunk)
        }
    }

    /// Refuses a declared `Content-Type` other than JSON: `415
    /// unsupportedMediaType` (`what` names what the body should hold).
    private static func requireJSON(_ request: Request, holding what: String) throws {
        if let type = request.headers[.contentType], !type.hasPrefix("application/json") {
            throw APIError(
                .unsupportedMediaType,
                .unsupportedMediaType,
                "the body is \(type.prefix(100)); send \(what) as JSON, with Content-Type: application/json"
            )
        }
    }
}
