import Anchorage
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST /v1/sign-in` (no token: a one-time code from the link the node
/// printed, exchanged for a session token) and `DELETE /v1/sign-in` (ends
/// the session whose token the request carries); docs/http-api.md, "The web
/// page".
struct SignInRoutes: Sendable {
    let signIn: WebSignIn

    /// What `POST /v1/sign-in` takes.
    struct Exchange: Decodable {
        var code: String
    }

    /// What it answers.
    struct Answer: Encodable {
        var token: String
        var expiresIn: Int
        var owner: Bool
    }

    func exchange(_ request: Request, context: NodeContext) async throws -> Response {
        let body = try await JSONBodies.collect(request, context: context, holding: "the sign-in code")
        let exchange: Exchange
        do {
            exchange = try JSONDecoder().decode(Exchange.self, from: body)
        } catch let error as DecodingError {
            throw APIError(.badRequest, .invalidJSON, DecodingErrorWords.describe(error))
        }
        guard exchange.code.utf8.count <= 256, let session = signIn.redeem(exchange.code) else {
            throw APIError(
                .unauthorized,
                .unauthenticated,
                "the sign-in code is not valid: a code works once, for 10 minutes after the node printed it; "
                    + "sign in with a token instead, or restart the node for a new link"
            )
        }
        return try JSONBodies.response(
            encoding: Answer(token: session.token, expiresIn: Int(session.lifetime.components.seconds), owner: true)
        )
    }

    func end(_ request: Request, context: NodeContext) async throws -> Response {
        if let header = request.headers[.authorization], header.count > 7,
            header.prefix(7).lowercased() == "bearer "
        {
            signIn.end(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        }
        return Response(status: .noContent)
    }
}
