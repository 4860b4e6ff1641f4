import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// One file of the web page, embedded in the binary by `Scripts/generate-web`
/// from `Web/` (``WebAssets/files``), so a copied binary still serves it.
struct WebAsset: Sendable {
    /// The `Content-Type` it is served with.
    var contentType: String
    /// A strong validator: a digest of its bytes, quoted.
    var etag: String
    /// Its bytes, decoded once from the base64 the binary embeds.
    var bytes: ByteBuffer

    init(contentType: String, etag: String, base64: String) {
        self.contentType = contentType
        self.etag = etag
        bytes = ByteBuffer(bytes: Data(base64Encoded: base64) ?? Data())
    }
}

/// The web page: `GET /` (`Web/index.html`) and `GET /web/{asset}` (the
/// other files of `Web/`), with a strict Content-Security-Policy, no
/// sniffing, no referrer, and revalidation by ETag (docs/http-api.md, "The
/// web page").
///
/// ```swift
/// WebAssets.addRoutes(to: router)   // before the token middleware: the page needs no token
/// ```
enum WebAssets {
    /// The policy of every page response: only the node's own scripts,
    /// styles and images; fetches to the node only; no frames, forms or base.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    private static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    private static let crossOriginOpenerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy")!

    /// What the page learns of the node before anyone signs in
    /// (`/web/node.json`): its kind (`single`, `multi`, `fleet`) and whether
    /// requests need a token. Nothing a request without a token could not
    /// learn from `/openapi.json` and a 401.
    struct NodeFacts: Encodable, Sendable {
        var kind: String
        var tokens: Bool
    }

    /// Adds `GET /`, `GET /web/{asset}`, and `GET /web/node.json` with `node`.
    static func addRoutes(to router: some RouterMethods<NodeContext>, node: NodeFacts) {
        let facts = asset(json: node)
        router.get("/") { request, _ in try response(for: "index.html", request: request) }
        router.get("/web/{asset}") { request, context in
            let name = try context.parameters.require("asset")
            if name == "node.json" { return response(facts, request: request) }
            return try response(for: name, request: request)
        }
    }

    /// `value` as a page file of type JSON, with its ETag.
    static func asset(json value: some Encodable) -> WebAsset {
        let bytes = (try? JSONBodies.encoder().encode(value)) ?? Data("{}".utf8)
        let digest = SHA256.hash(data: bytes).prefix(12).map { String(format: "%02x", $0) }.joined()
        return WebAsset(contentType: "application/json", etag: "\"\(digest)\"", base64: bytes.base64EncodedString())
    }

    /// The answer for the file `name`: `200` with it, `304` when the
    /// request's `If-None-Match` names its ETag, `404` for no such file.
    static func response(for name: String, request: Request) throws -> Response {
        guard let asset = files[name] else {
            throw APIError(.notFound, .notFound, "the web page has no file \(name.prefix(64))")
        }
        return response(asset, request: request)
    }

    /// The answer with `asset`: `200`, or `304` when the request's
    /// `If-None-Match` names its ETag.
    static func response(_ asset: WebAsset, request: Request) -> Response {
        let headers: HTTPFields = [
            .contentType: asset.contentType,
            .eTag: asset.etag,
            .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
            Self.referrerPolicy: "no-referrer",
            Self.crossOriginOpenerPolicy: "same-origin",
        ]
        let presented = request.headers[.ifNoneMatch] ?? ""
        if presented.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == asset.etag }) {
            return Response(status: .notModified, headers: headers)
        }
        if asset.contentType == "application/json" { ResponseRecorder.note(asset.bytes) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: asset.bytes))
    }
}
