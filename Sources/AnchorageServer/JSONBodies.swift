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
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
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
        if let type = request.headers[.contentType], !type.hasPrefix("application/json") {
            throw APIError(
                .unsupportedMediaType,
                .unsupportedMediaType,
                "the body is \(type.prefix(100)); send \(what) as JSON, with Content-Type: application/json"
            )
        }
        let bytes = try await request.body.collect(upTo: context.maximumBodyBytes)
        return Data(bytes.readableBytesView)
    }
}
