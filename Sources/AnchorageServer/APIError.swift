import Anchorage
public import AnchorageCore
import Foundation
public import HTTPTypes
public import Hummingbird
import NIOCore
import NIOHTTP1

/// An error as the HTTP API reports it: a status and a JSON body
/// `{"code": "...", "message": "..."}` whose code a client can match.
///
/// Messages say what was wrong and what to send instead; they never repeat a
/// health value.
public struct APIError: HTTPResponseError, CustomStringConvertible {
    /// The machine-readable codes, documented in docs/http-api.md.
    public enum Code: String, Sendable, Codable {
        case badRequest, invalidJSON, invalidArgument, unknownType, incompatibleUnit
        case unauthenticated, authorizationDenied, notFound, methodNotAllowed, bodyTooLarge, requestTimeout
        case anchorNotValid, unavailable, internalError
        case malformedBatch, unsupportedVersion, wrongPeer, incarnationChanged, checkpointMoved, rejected
        case protocolViolation, rateLimited, unsupportedMediaType
        case storageFailed, invalidCursor, cursorExpired
        case storeExists, storeInUse, quotaExceeded, peerExists
        case replicationUnavailable, staleEpoch, fleetUnavailable, notPrimary
        case keyShredded, keyUnavailable
    }

    public let status: HTTPResponse.Status
    public let code: Code
    public let message: String
    /// Whether the answer closes the connection (`Connection: close`): the
    /// request's body was refused unread, was cut off, or lost its framing.
    var closesConnection = false
    /// Whole seconds to send as `Retry-After`, when the client should wait
    /// before asking again.
    var retryAfterSeconds: Int?

    public init(_ status: HTTPResponse.Status, _ code: Code, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// This error, answered with `Connection: close`.
    func closingConnection() -> APIError {
        var error = self
        error.closesConnection = true
        return error
    }

    /// This error, answered with `Retry-After` (whole seconds, at least 1).
    func retrying(after delay: Duration) -> APIError {
        var error = self
        error.retryAfterSeconds = Self.wholeSeconds(delay)
        return error
    }

    public var description: String { "\(status.code) \(code.rawValue): \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var body = ByteBuffer()
        body.writeBytes(Self.json(code: code.rawValue, message: message))
        var headers: HTTPFields = [.contentType: "application/json"]
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        if closesConnection { headers[.connection] = "close" }
        if let retryAfterSeconds { headers[.retryAfter] = String(retryAfterSeconds) }
        ResponseRecorder.note(body)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    static func json(code: String, message: String) -> [UInt8] {
        struct Body: Encodable {
            let code: String
            let message: String
        }
        return Array((try? JSONBodies.encoder().encode(Body(code: code, message: message))) ?? Data())
    }

    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, .badRequest, message) }

    /// `503 replicationUnavailable`: no replica confirmed a write in time;
    /// the client may try again after `delay` (sent as whole seconds).
    static func replicationUnavailable(_ message: String, retryAfter delay: Duration) -> APIError {
        var error = APIError(.serviceUnavailable, .replicationUnavailable, message)
        error.retryAfterSeconds = wholeSeconds(delay)
        return error
    }

    /// `delay` rounded up to whole seconds, at least 1.
    private static func wholeSeconds(_ delay: Duration) -> Int {
        max(1, Int(delay.components.seconds) + (delay.components.attoseconds > 0 ? 1 : 0))
    }

    /// `429 rateLimited`: the principal asked for more than its share of
    /// some work; it may ask again after `delay` (sent as whole seconds).
    static func rateLimited(_ message: String, retryAfter delay: Duration) -> APIError {
        var error = APIError(.tooManyRequests, .rateLimited, message)
        error.retryAfterSeconds = wholeSeconds(delay)
        return error
    }

    /// The API's form of any error a handler throws: Anchorage's errors
    /// by their code (``answers``); the HTTP framework's by what they are.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as any AnchorageError:
            return from(anchorageError: error)
        case let error as DecodingError:
            return APIError(.badRequest, .invalidJSON, DecodingErrorWords.describe(error))
        case let error as HTTPError:
            switch error.status {
            case .notFound: return APIError(.notFound, .notFound, "no such endpoint; see docs/http-api.md")
            case .contentTooLarge:
                return APIError(.contentTooLarge, .bodyTooLarge, "the request body is too large").closingConnection()
            case .methodNotAllowed: return APIError(.methodNotAllowed, .methodNotAllowed, "method not allowed here")
            default: return APIError(error.status, .badRequest, error.body ?? error.status.reasonPhrase)
            }
        case let error as HTTPParserError:
            // The body's framing is lost: the node answers, then closes the connection.
            return APIError(
                .badRequest,
                .badRequest,
                "the request's HTTP framing is malformed (\(error)); send the body with a Content-Length, "
                    + "or chunked with hexadecimal chunk sizes and CRLF after each chunk"
            ).closingConnection()
        case is NIOTooManyBytesError:
            return APIError(.contentTooLarge, .bodyTooLarge, "the request body is too large").closingConnection()
        case let error as RequestBodyTimeout:
            return APIError(.requestTimeout, .requestTimeout, error.description).closingConnection()
        case is CancellationError:
            return APIError(.serviceUnavailable, .unavailable, "the node is shutting down")
        default:
            return APIError(.internalServerError, .internalError, "internal error; the node's log has details")
        }
    }
}

/// `node.<code>`: the HTTP API's own codes (docs/http-api.md).
extension APIError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.node, code.rawValue) }
    public var retryAfter: Duration? { retryAfterSeconds.map { .seconds($0) } }
}
