import AnchorageLog
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// Sends a request for a store this node does not serve on to the node
/// that does (the store's primary), and streams the answer back: bodies go
/// through as they arrive both ways, so a followed change feed stays live.
///
/// A forwarded request carries `X-Anchorage-Forwarded-By`; a node never
/// forwards such a request again (its placement cache and the sender's
/// disagree for a moment: the client gets `503 notPrimary` and asks again).
struct FleetForwarder: Sendable {
    static let forwardedBy = HTTPField.Name("X-Anchorage-Forwarded-By")!
    /// Request headers that belong to one connection, not to the request.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host",
    ]

    let client: HTTPClient
    let nodeID: String
    /// How long the answer may take to begin.
    let deadline: ForwardingDeadline

    /// Forwards `request` to the node at `address` (`http://host:port`);
    /// gives up (`503 fleetUnavailable`) if `abandon` returns before the
    /// answer begins: the node was the store's primary and is no longer.
    func forward(
        _ request: Request,
        to address: String,
        maximumBodyBytes: Int,
        abandon: (@Sendable () async -> Void)? = nil
    ) async throws -> Response {
        guard request.headers[Self.forwardedBy] == nil else {
            throw APIError(.serviceUnavailable, .notPrimary, "this node does not serve the store; ask again")
                .retrying(after: .seconds(1))
        }
        let base = address.hasSuffix("/") ? String(address.dropLast()) : address
        var outgoing = HTTPClientRequest(url: base + request.uri.description)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers where !Self.hopByHop.contains(field.name.canonicalName) {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        outgoing.headers.replaceOrAdd(name: Self.forwardedBy.rawName, value: nodeID)
        if request.method != .get && request.method != .head {
            // Read whole (bounded) before sending: the request's body must
            // not be read after this handler has answered, which a stream
            // still being sent to a node that failed would do.
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximumBodyBytes {
                throw APIError(.contentTooLarge, .bodyTooLarge, "the request body is too large").closingConnection()
            }
            let body = try await request.body.collect(upTo: maximumBodyBytes)
            outgoing.body = .bytes(body)
        }
        let answer: HTTPClientResponse
        let wait = deadline.duration(path: request.uri.path, query: request.uri.query)
        do {
            // The deadline covers the answer's start; its body then streams.
            answer = try await withThrowingTaskGroup(of: HTTPClientResponse?.self) { [client, outgoing] group in
                group.addTask { try await client.execute(outgoing, timeout: .nanoseconds(wait.nanosecondCount)) }
                if let abandon {
                    group.addTask {
                        await abandon()
                        return nil
                    }
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let answer = first else {
                    throw APIError(
                        .serviceUnavailable,
                        .fleetUnavailable,
                        "the store's primary changed, or stopped answering, before it answered; ask again in a "
                            + "moment (a write may have been stored, unacknowledged: a save sent again is refused "
                            + "for a uuid that exists)"
                    ).retrying(after: .seconds(1))
                }
                return answer
            }
        } catch let error as APIError {
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            throw APIError(
                .serviceUnavailable,
                .fleetUnavailable,
                "the store's primary did not answer within \(wait.timeInterval.formatted()) s; ask again in a "
                    + "moment (a write may have been applied: a save sent again is refused for a uuid that exists)"
            ).retrying(after: .seconds(1))
        } catch {
            throw APIError(
                .serviceUnavailable,
                .fleetUnavailable,
                "the store's primary could not be reached; ask again in a moment"
            ).retrying(after: .seconds(1))
        }
        var headers = HTTPFields()
        for header in answer.headers where !Self.hopByHop.contains(header.name.lowercased()) {
            if let name = HTTPField.Name(header.name) { headers.append(HTTPField(name: name, value: header.value)) }
        }
        let length = answer.headers.first(name: "content-length").flatMap(Int.init)
        headers[.contentLength] = nil
        let body = answer.body
        return Response(
            status: HTTPResponse.Status(code: Int(answer.status.code), reasonPhrase: answer.status.reasonPhrase),
            headers: headers,
            body: ResponseBody(contentLength: length) { writer in
                for try await chunk in body { try await writer.write(chunk) }
                try await writer.finish(nil)
            }
        )
    }
}
