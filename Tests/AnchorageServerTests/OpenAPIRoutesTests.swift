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
