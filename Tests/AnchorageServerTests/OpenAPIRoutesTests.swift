import AnchorageService
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AnchorageServer

/// Collects the routes a node registers, without serving them.
final class RouteRecorder: RouterMethods, @unchecked Sendable {
    // @unchecked: used by one test task only.
    typealias Context = NodeContext
    private(set) var routes: [String: Set<String>] = [:]

    @discardableResult
    func on<Responder: HTTPResponder>(
        _ path: RouterPath,
        method: HTTPRequest.Method,
        responder: Responder
    ) -> Self where Responder.Context == NodeContext {
        routes[path.description, default: []].insert(method.rawValue.lowercased())
        return self
    }

    func add(middleware: any MiddlewareProtocol<Request, Response, NodeContext>) -> Self { self }
}

/// docs/openapi.yaml against the routes each kind of node registers: a
/// route added without its description, or described but gone, fails here.
@Suite("The OpenAPI document and the routes")
struct OpenAPIRoutesTests {
    static func expectSame(_ registered: [String: Set<String>], _ kind: OpenAPIDocument.NodeKind) {
        let described = OpenAPIDocument.operations(for: kind)
        for (path, methods) in registered.sorted(by: { $0.key < $1.key }) {
            let missing = methods.subtracting(described[path] ?? [])
            #expect(missing.isEmpty, "\(kind): \(missing.sorted()) \(path) is served but not in docs/openapi.yaml")
        }
        for (path, methods) in described.sorted(by: { $0.key < $1.key }) {
            let gone = methods.subtracting(registered[path] ?? [])
            #expect(gone.isEmpty, "\(kind): \(gone.sorted()) \(path) is in docs/openapi.yaml but not served")
        }
    }

    @Test("a single-store node serves exactly the operations the document gives it")
    func singleStore() async throws {
        try await withTemporaryDirectory { directory in
            let node = try await AnchorageNode(directory: directory, configuration: NodeConfiguration())
            let recorder = RouteRecorder()
            node.addRoutes(to: recorder)
            Self.expectSame(recorder.routes, .single)
            await node.close()
        }
    }

    @Test("a multi-store node serves exactly the operations the document gives it")
    func multiStore() async throws {
        try await withTemporaryDirectory { root in
            let node = try MultiStoreNode(root: root, configuration: NodeConfiguration(), storeConfiguration: .forTests)
            let recorder = RouteRecorder()
            node.addRoutes(to: recorder)
            Self.expectSame(recorder.routes, .multi)
            await node.close()
        }
    }

    @Test("a fleet node serves exactly the operations the document gives it")
    func fleet() async throws {
        try await withTemporaryDirectory { root in
            // No etcd is reached: the node is built, its routes listed, and closed.
            let node = try FleetNode(
                root: root,
                configuration: NodeConfiguration(),
                fleet: FleetConfiguration(
                    etcd: ["http://127.0.0.1:9"],
                    nodeID: "n1",
                    address: "http://127.0.0.1:9",
                    secret: "a-fleet-secret-for-tests"
                )
            )
            let recorder = RouteRecorder()
            node.addRoutes(to: recorder)
            Self.expectSame(recorder.routes, .fleet)
            await node.close()
        }
    }

    @Test("GET /openapi.json answers the document of the node's kind, without a token")
    func served() async throws {
        try await MultiStoreFixture.with { fixture in
            try await fixture.node.application().test(.router) { client in
                let response = try await client.execute(uri: "/openapi.json", method: .get)
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                #expect(document?["openapi"] as? String == "3.1.0")
                let paths = try #require(document?["paths"] as? [String: Any])
                #expect(paths["/v1/stores/{store}/samples"] != nil && paths["/v1/samples"] == nil)
                #expect(!text.contains("x-anchorage-nodes"))
            }
        }
    }
}

extension OpenAPIRoutesTests {
    @Test("docs/openapi.json, the document tools read, is the one the node serves")
    func publishedDocument() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.json")
        let published = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? NSDictionary
        let served = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.source.utf8)) as? NSDictionary
        #expect(published != nil && published == served, "run Scripts/generate-openapi")
    }
}

extension OpenAPIRoutesTests {
    @Test("a described path asked with a method it does not take is 405 with Allow; an unknown path stays 404")
    func methodNotAllowed() async throws {
        try await MultiStoreFixture.with { fixture in
            try await fixture.node.application().test(.router) { client in
                let trace = HTTPRequest.Method("TRACE")!
                let health = try await client.execute(uri: "/healthz", method: trace)
                #expect(health.status == .methodNotAllowed && health.headers[.allow] == "GET")
                let changes = try await client.execute(uri: "/v1/stores/alice/changes", method: .delete)
                #expect(changes.status == .methodNotAllowed && changes.headers[.allow] == "GET")
                let samples = try await client.execute(uri: "/v1/stores/alice/samples", method: .put)
                #expect(samples.status == .methodNotAllowed && samples.headers[.allow] == "GET, POST")
                let body = String(buffer: samples.body)
                #expect(body.contains("\"code\":\"methodNotAllowed\""))
                let unknown = try await client.execute(uri: "/v1/stores/alice/nothing", method: .get)
                #expect(unknown.status == .notFound)
            }
        }
    }
}

/// What goes over the wire, against the document each kind of node serves:
/// every operation a node serves, asked without a token and asked with a
/// token but without what it requires (an empty JSON object for a body,
/// no required query parameter), answers with a status the document lists
/// for that operation, in a media type it lists for that status (an error
/// as `application/json`), and with no body where it lists none. The
/// bodies themselves are held to their schemas by Scripts/check-responses
/// (every answer here is recorded with the rest).
extension OpenAPIRoutesTests {
    /// The token a request for `operation` carries, when it carries one.
    typealias TokenChoice = @Sendable (_ operation: [String: Any]) -> String

    static func expectWireConforms(
        _ kind: OpenAPIDocument.NodeKind,
        router: Router<NodeContext>,
        token: TokenChoice
    ) async throws {
        let parsed = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json(for: kind)))
        let document = OpenAPIExamples(document: try #require(parsed as? [String: Any]))
        let count = document.operations(for: kind).count
        #expect(count == OpenAPIDocument.operations(for: kind).values.map(\.count).reduce(0, +))
        try await Application(router: router).test(.router) { client in
            for (template, method, operation, shared) in document.operations(for: kind) {
                let id = operation["operationId"] as? String ?? "?"
                let path =
                    template.replacingOccurrences(of: "{store}", with: "alice")
                    .replacingOccurrences(of: "{uuid}", with: UUID().uuidString)
                    .replacingOccurrences(of: #"\{[a-z]+\}"#, with: "x", options: .regularExpression)
                let name = HTTPRequest.Method(method.uppercased())!

                // Without a token.
                let anonymous = try await client.execute(uri: path, method: name)
                expectListed(
                    anonymous,
                    for: operation,
                    in: document,
                    "\(kind): \(id) (\(name) \(path)) without a token"
                )

                // With a token, missing what it requires.
                let body = document.resolved(operation["requestBody"] as Any) as? [String: Any]
                let media = (body?["content"] as? [String: Any])?.keys.sorted() ?? []
                let parameters = (shared + (operation["parameters"] as? [Any] ?? [])).compactMap {
                    document.resolved($0) as? [String: Any]
                }
                let requiresQuery = parameters.contains {
                    $0["in"] as? String == "query" && $0["required"] as? Bool == true
                }
                guard !media.isEmpty || requiresQuery else { continue }
                var headers: HTTPFields = [.authorization: "Bearer \(token(operation))"]
                var buffer: ByteBuffer?
                if let type = media.contains("application/json") ? "application/json" : media.first {
                    headers[.contentType] = type
                    buffer = ByteBuffer(string: type == "application/json" ? "{}" : "")
                }
                let invalid = try await client.execute(uri: path, method: name, headers: headers, body: buffer)
                expectListed(
                    invalid,
                    for: operation,
                    in: document,
                    "\(kind): \(id) (\(name) \(path)) with \(buffer == nil ? "no query" : "an empty body")"
                )
            }
        }
    }

    /// Expects `response`'s status among those `operation` lists, and its
    /// media type among those listed for the status.
    static func expectListed(
        _ response: TestResponse,
        for operation: [String: Any],
        in document: OpenAPIExamples,
        _ request: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let status = String(response.status.code)
        let responses = operation["responses"] as? [String: Any] ?? [:]
        guard let listed = responses[status] ?? responses["default"] else {
            Issue.record(
                "\(request): \(status) is not among the statuses the document lists, \(responses.keys.sorted()): \(response.text)",
                sourceLocation: sourceLocation
            )
            return
        }
        let types = ((document.resolved(listed) as? [String: Any])?["content"] as? [String: Any])?.keys.sorted() ?? []
        let type = response.headers[.contentType].map {
            $0.split(separator: ";").first.map(String.init)?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        }
        if types.isEmpty {
            #expect(
                response.body.readableBytes == 0,
                "\(request): \(status) has a body, and the document lists none",
                sourceLocation: sourceLocation
            )
        } else {
            #expect(
                type.map(types.contains) == true,
                "\(request): \(status) answered \(type ?? "no Content-Type"); the document lists \(types)",
                sourceLocation: sourceLocation
            )
        }
    }

    @Test("on the wire, a single-store node answers each operation with a status and media type the document lists")
    func singleStoreWire() async throws {
        let owner = "owner-token-of-the-wire-test-01"
        try await withNode(policy: AccessPolicy(tokens: [.owner(owner, replicates: true)])) { node, directory in
            try await Self.expectWireConforms(.single, router: node.router()) { _ in owner }
            try await expectAuditPasses(directory)
        }
    }

    @Test("on the wire, a multi-store node answers each operation with a status and media type the document lists")
    func multiStoreWire() async throws {
        try await MultiStoreFixture.with { fixture in
            let registry = fixture.node.registry
            let administrator = try registry.issueToken(.administrator()).secret
            let replicator = try registry.issueToken(
                TokenGrant(store: try StoreName("alice"), owner: false, replicates: true)
            ).secret
            let owner = fixture.alice
            try await Self.expectWireConforms(.multi, router: fixture.node.router()) { operation in
                let tags = operation["tags"] as? [String] ?? []
                if tags.contains("admin") || operation["operationId"] as? String == "storeUpdates" {
                    return administrator
                }
                return tags.contains("sync") ? replicator : owner
            }
            try await fixture.expectAudits()
        }
    }

    @Test("on the wire, a fleet node answers each operation with a status and media type the document lists")
    func fleetWire() async throws {
        try await withTemporaryDirectory { root in
            // No etcd is reached: the node's routes answer from what it holds (nothing) and refuse or forward
            // the rest; its background work does not run.
            let secret = "a-fleet-secret-for-tests"
            let node = try FleetNode(
                root: root,
                configuration: NodeConfiguration(),
                fleet: FleetConfiguration(
                    etcd: ["http://127.0.0.1:9"],
                    nodeID: "n1",
                    address: "http://127.0.0.1:9",
                    secret: secret
                )
            )
            try await Self.expectWireConforms(.fleet, router: node.router()) { _ in secret }
            await node.close()
        }
    }
}
