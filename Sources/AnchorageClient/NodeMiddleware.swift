import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Adds `Authorization: Bearer <token>` to every request.
struct BearerTokenMiddleware: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// Sends a store's routes to one store of a multi-store or fleet node:
/// `/v1/changes` becomes `/v1/stores/{store}/changes`. The client is
/// generated from the single-store routes only (Scripts/generate-client);
/// the node's own routes (`/v1/stores…`, `/v1/fleet/…`, `/v1/sign-in`, and
/// those outside `/v1/`) go as they are.
struct StorePathMiddleware: ClientMiddleware {
    /// The path prefix of the store's routes, its id percent-encoded.
    let prefix: String

    init(store: String) {
        let id = store.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? store
        prefix = "/v1/stores/\(id)/"
    }

    /// The node's own routes under `/v1/`, which no store has.
    static let nodeRoutes = ["stores", "fleet", "sign-in", "store-updates"]

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let path = request.path, path.hasPrefix("/v1/") {
            let rest = path.dropFirst("/v1/".count)
            let first = rest.prefix { $0 != "/" && $0 != "?" }
            if !Self.nodeRoutes.contains(String(first)) { request.path = prefix + rest }
        }
        return try await next(request, body, baseURL)
    }
}

/// Turns every answer of 400 or more into an ``AnchorageClientError``
/// carrying the node's code and message (its error body, docs/http-api.md),
/// whichever operation was called and whether the document lists the status.
struct NodeErrorMiddleware: ClientMiddleware {
    /// The most of an error body read: error bodies are a line of JSON.
    static let maximumErrorBytes = 64 << 10

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        throw await Self.error(status: response.status, body: responseBody)
    }

    /// The error an answer with `status` and `body` stands for.
    static func error(status: HTTPResponse.Status, body: HTTPBody?) async -> AnchorageClientError {
        struct Answer: Decodable {
            var code: String
            var message: String
        }
        var bytes: Data? = nil
        if let body { bytes = try? await Data(collecting: body, upTo: maximumErrorBytes) }
        if let bytes, let answer = try? JSONDecoder().decode(Answer.self, from: bytes) {
            return AnchorageClientError(.init(answer.code), status: status.code, answer.message)
        }
        return AnchorageClientError(
            .invalidResponse,
            status: status.code,
            "the node answered \(status.code) \(status.reasonPhrase) without an error body"
        )
    }
}
