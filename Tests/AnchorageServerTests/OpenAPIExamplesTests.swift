import AnchorageService
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AnchorageServer

/// docs/openapi.json as the examples tests read it: its examples, found
/// wherever they stand, and which of them describe a request.
struct OpenAPIExamples: @unchecked Sendable {
    // @unchecked: the parsed document is never changed once read.
    /// A JSON pointer's segments (RFC 6901), unescaped.
    typealias Pointer = [String]

    /// The document.
    let document: [String: Any]

    init() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.json")
        let parsed = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        document = try #require(parsed as? [String: Any])
    }

    /// A pointer as text: `#/components/schemas/Workout/examples/0`.
    static func describe(_ pointer: Pointer) -> String {
        "#/"
            + pointer.map { $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
            .joined(separator: "/")
    }

    /// The value at `pointer` in `root`.
    static func value(at pointer: Pointer, in root: Any) -> Any? {
        var current: Any? = root
        for segment in pointer {
            if let object = current as? [String: Any] {
                current = object[segment]
            } else if let list = current as? [Any], let index = Int(segment), list.indices.contains(index) {
                current = list[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// `root` with `value` put at `pointer` (objects and list items on the
    /// way must exist; the last key of an object may be new).
    static func setting(_ value: Any, at pointer: Pointer, in root: Any) -> Any {
        guard let segment = pointer.first else { return value }
        let rest = Array(pointer.dropFirst())
        if var list = root as? [Any], let index = Int(segment), list.indices.contains(index) {
            list[index] = setting(value, at: rest, in: list[index])
            return list
        }
        var object = root as? [String: Any] ?? [:]
        object[segment] = setting(value, at: rest, in: object[segment] ?? [String: Any]())
        return object
    }

    /// `value` with a new uuid for every `uuid` member, at any depth: an
    /// object is saved once (OBJ-32), so a second object built on an
    /// example needs its own.
    static func renewingUUIDs(_ value: Any) -> Any {
        if let list = value as? [Any] { return list.map(renewingUUIDs) }
        guard var object = value as? [String: Any] else { return value }
        for (key, member) in object {
            object[key] = key == "uuid" && member is String ? UUID().uuidString : renewingUUIDs(member)
        }
        return object
    }

    /// Every `example` and `examples` in the document, with where it is: a
    /// list's items one by one, an OpenAPI examples map's values by name.
    func examples() -> [(pointer: Pointer, value: Any)] {
        var found: [(pointer: Pointer, value: Any)] = []
        func walk(_ value: Any, _ pointer: Pointer, names: Bool) {
            if let object = value as? [String: Any] {
                for (key, child) in object.sorted(by: { $0.key < $1.key }) {
                    // The keys of `properties` are names: a property may be called `example`.
                    if !names && key == "example" {
                        found.append((pointer + [key], child))
                    } else if !names && key == "examples", let list = child as? [Any] {
                        for (index, item) in list.enumerated() { found.append((pointer + [key, String(index)], item)) }
                    } else if !names && key == "examples", let map = child as? [String: Any] {
                        for (name, item) in map.sorted(by: { $0.key < $1.key }) {
                            found.append((pointer + [key, name, "value"], (item as? [String: Any])?["value"] ?? item))
                        }
                    } else {
                        walk(
                            child,
                            pointer + [key],
                            names: !names && (key == "properties" || key == "patternProperties")
                        )
                    }
                }
            } else if let list = value as? [Any] {
                for (index, item) in list.enumerated() { walk(item, pointer + [String(index)], names: false) }
            }
        }
        walk(document, [], names: false)
        return found
    }

    /// The operations a node of `kind` serves: path, method, operation, and
    /// the path item's own parameters. (A node's own document, which has no
    /// `x-anchorage-nodes`, gives only its own.)
    func operations(
        for kind: OpenAPIDocument.NodeKind
    ) -> [(path: String, method: String, operation: [String: Any], shared: [Any])] {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        var found: [(path: String, method: String, operation: [String: Any], shared: [Any])] = []
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            guard (item["x-anchorage-nodes"] as? [String]).map({ $0.contains(kind.rawValue) }) ?? true else { continue }
            for method in ["get", "put", "post", "delete", "patch"] {
                guard let operation = item[method] as? [String: Any] else { continue }
                found.append((path, method, operation, item["parameters"] as? [Any] ?? []))
            }
        }
        return found
    }

    /// The operation `id` serves on `kind` (or its store copy, `store…`).
    func operation(
        _ id: String,
        for kind: OpenAPIDocument.NodeKind
    ) -> (path: String, method: String, operation: [String: Any], shared: [Any])? {
        let copy = "store" + id.prefix(1).uppercased() + id.dropFirst()
        return operations(for: kind).first { [id, copy].contains($0.operation["operationId"] as? String) }
    }

    /// Where a `$ref` leads, as a pointer.
    static func target(of reference: String) -> Pointer {
        reference.dropFirst(2).split(separator: "/").map {
            String($0).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// `value` resolved when it is a `$ref`.
    func resolved(_ value: Any) -> Any {
        guard let reference = (value as? [String: Any])?["$ref"] as? String else { return value }
        return Self.value(at: Self.target(of: reference), in: document) ?? value
    }

    /// The component schemas a request can carry: those request bodies and
    /// parameters refer to, and those they refer to in turn.
    func requestSchemas() -> Set<String> {
        var pending: [Any] = []
        for kind in OpenAPIDocument.NodeKind.allCases {
            for (_, _, operation, shared) in operations(for: kind) {
                pending.append(operation["requestBody"] as Any)
                pending.append(operation["parameters"] as Any)
                pending.append(shared)
            }
        }
        var seen: Set<String> = []
        var schemas: Set<String> = []
        while let value = pending.popLast() {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String, seen.insert(reference).inserted {
                    let target = Self.target(of: reference)
                    if target.count == 3 && target[1] == "schemas" { schemas.insert(target[2]) }
                    pending.append(Self.value(at: target, in: document) as Any)
                }
                pending.append(contentsOf: object.values)
            } else if let list = value as? [Any] {
                pending.append(contentsOf: list)
            }
        }
        return schemas
    }

    /// Whether the example at `pointer` describes what a node of `kind` is
    /// sent: a request body's, a parameter's, or one in a schema a request
    /// carries. The others are answers' (Scripts/check-responses holds the
    /// answers themselves to the document).
    func describesRequest(_ pointer: Pointer, for kind: OpenAPIDocument.NodeKind, schemas: Set<String>) -> Bool {
        switch pointer.first {
        case "paths":
            let item = (document["paths"] as? [String: [String: Any]])?[pointer[1]]
            guard (item?["x-anchorage-nodes"] as? [String])?.contains(kind.rawValue) == true else { return false }
            return pointer.contains("requestBody") || pointer.contains("parameters")
        case "components":
            switch pointer[1] {
            case "schemas": return schemas.contains(pointer[2])
            case "parameters", "requestBodies": return true
            default: return false
            }
        default:
            return false
        }
    }
}

/// Every example docs/openapi.json gives of a request is sent to a live node
/// of each kind that serves it and must be accepted (2xx): each request
/// body's example; each sample kind's examples (`components.schemas`, to
/// `POST …/samples`, the medication dose event's by the owner, who may save
/// it); each example of a part of a request (a metadata dictionary, a
/// device, a unit…), put into a whole example of its kind (`placements`);
/// and, for each operation with parameter examples, one request with all
/// of them. A request with a token that may make it: the store's owner, the
/// node's administrator on the admin routes and the feed of store updates,
/// a replicating token on the sync routes. The state an example needs is
/// made first (the store exists; the node allows webhooks to loopback).
/// An example of a request the test does not send fails it: the examples
/// of answers are the only ones left out.
///
/// A fleet node is not covered: a fleet needs etcd, and a write on a fleet
/// waits for a replica's acknowledgement, so for two nodes. Its store routes
/// are the multi-store node's (the same handlers, sent here at
/// /v1/stores/{store}/…); of its own, no operation has an example, and
/// `issueToken`'s, which it shares with the multi-store node, is sent to
/// the multi-store node only.
@Suite("The OpenAPI document's examples, each sent to a node and accepted")
struct OpenAPIExamplesTests {
    /// Where an example of a part of a request goes: into a copy of a whole
    /// example (new uuids), at a pointer.
    enum Host {
        /// A sample kind's example, `components.schemas.<schema>.examples[index]`.
        case sample(String, Int)
        /// A `POST …/sync/identity` body: a new store's identity, at its start.
        case peerIdentity
    }

    /// Each example of a part of a request, with where it is sent.
    static let placements: [String: (host: Host, at: String)] = [
        "#/components/schemas/DateTime/example": (.sample("QuantitySample", 0), "/endDate"),
        "#/components/schemas/Device/example": (.sample("QuantitySample", 0), "/device"),
        "#/components/schemas/HealthObjectFields/properties/type/example": (.sample("QuantitySample", 0), "/type"),
        "#/components/schemas/Metadata/example": (.sample("QuantitySample", 0), "/metadata"),
        "#/components/schemas/Quantity/example": (.sample("QuantitySample", 0), "/quantity"),
        "#/components/schemas/Unit/example": (.sample("QuantitySample", 0), "/quantity/unit"),
        "#/components/schemas/SourceRevision/example": (.sample("QuantitySample", 0), "/sourceRevision"),
        "#/components/schemas/SourceRevision/properties/productType/example":
            (.sample("QuantitySample", 0), "/sourceRevision/productType"),
        "#/components/schemas/SourceRevision/properties/operatingSystemVersion/example":
            (.sample("QuantitySample", 0), "/sourceRevision/operatingSystemVersion"),
        "#/components/schemas/ConceptIdentifier/properties/domain/example":
            (.sample("MedicationDoseEvent", 0), "/medicationConcept/domain"),
        "#/components/schemas/ConceptIdentifier/properties/code/example":
            (.sample("MedicationDoseEvent", 0), "/medicationConcept/code"),
        "#/components/schemas/FHIRResource/properties/resourceType/example":
            (.sample("ClinicalRecord", 0), "/fhirResource/resourceType"),
        "#/components/schemas/FHIRResource/properties/fhirVersion/example":
            (.sample("ClinicalRecord", 0), "/fhirResource/fhirVersion"),
        "#/components/schemas/WorkoutStatistic/properties/type/example": (.sample("Workout", 0), "/statistics/0/type"),
        "#/components/schemas/PeerIdentity/properties/protocolVersion/example": (.peerIdentity, "/protocolVersion"),
    ]

    /// The tokens of the node under test.
    struct Tokens {
        var owner: String
        var administrator: String?
        var replicator: String
    }

    /// Sends every example of a request to `client`'s node of `kind`, each
    /// expected 2xx; then expects that every such example was sent.
    static func sendExamples(
        _ examples: OpenAPIExamples,
        kind: OpenAPIDocument.NodeKind,
        client: some TestClientProtocol,
        tokens: Tokens
    ) async throws {
        var sent: Set<String> = []
        let schemas = examples.requestSchemas()
        let healthObjects = Self.healthObjectKinds(examples)

        /// Sends a request for an operation, and expects 2xx.
        func send(
            _ operation: (path: String, method: String, operation: [String: Any], shared: [Any]),
            query: [(String, String)] = [],
            body: Any? = nil,
            type: String = "application/json",
            example: String
        ) async throws {
            let id = operation.operation["operationId"] as? String ?? "?"
            let tags = operation.operation["tags"] as? [String] ?? []
            let token =
                tags.contains("admin") || id == "storeUpdates"
                ? tokens.administrator : tags.contains("sync") ? tokens.replicator : tokens.owner
            let path = try fill(operation.path, operation: id)
            var uri = path
            if !query.isEmpty {
                var allowed = CharacterSet.alphanumerics
                allowed.insert(charactersIn: "-._~")
                uri +=
                    "?"
                    + query.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $1)" }
                    .joined(separator: "&")
            }
            var headers: HTTPFields = [:]
            if let token { headers[.authorization] = "Bearer \(token)" }
            var buffer: ByteBuffer?
            if let body {
                #expect(
                    type.hasSuffix("json"),
                    "\(kind): \(id): the example \(example) is \(type), which this test sends as JSON"
                )
                headers[.contentType] = type
                buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]))
            }
            let method = HTTPRequest.Method(operation.method.uppercased())!
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: buffer)
            #expect(
                (200..<300).contains(Int(response.status.code)),
                "\(kind): \(id) (\(method) \(path)) refused the example \(example): \(response.status.code) \(response.text)"
            )
        }

        // Each request body's examples.
        for operation in examples.operations(for: kind) {
            guard let body = examples.resolved(operation.operation["requestBody"] as Any) as? [String: Any] else {
                continue
            }
            let reference = (operation.operation["requestBody"] as? [String: Any])?["$ref"] as? String
            let base =
                reference.map(OpenAPIExamples.target(of:)) ?? [
                    "paths", operation.path, operation.method, "requestBody",
                ]
            for (pointer, value) in OpenAPIExamples(document: body).examples() {
                let whole = OpenAPIExamples.describe(base + pointer)
                // Only a media type's example is a whole body; a schema's inside it is placed below.
                guard pointer.count >= 3 && pointer[0] == "content" && pointer[2].hasPrefix("example") else { continue }
                try await send(operation, body: value, type: pointer[1], example: whole)
                sent.insert(whole)
            }
        }

        // Each sample kind's examples, and the examples of their parts.
        let save = try #require(examples.operation("saveSamples", for: kind))
        for (_, list) in healthObjects {
            for (pointer, sample) in list {
                try await send(save, body: [sample], example: pointer)
                sent.insert(pointer)
            }
        }
        for (pointer, value) in examples.examples() {
            let described = OpenAPIExamples.describe(pointer)
            guard let placement = Self.placements[described] else { continue }
            let at = placement.at.split(separator: "/").map(String.init)
            switch placement.host {
            case .sample(let name, let index):
                let host = try #require(healthObjects.first { $0.name == name }?.examples[index].value, "\(name)")
                let sample = OpenAPIExamples.setting(value, at: at, in: OpenAPIExamples.renewingUUIDs(host))
                try await send(save, body: [sample], example: described)
            case .peerIdentity:
                let identity: [String: Any] = [
                    "protocolVersion": 1, "storeID": UUID().uuidString.lowercased(), "incarnation": 0, "head": 0,
                    "versionVector": [String: Any](),
                ]
                let operation = try #require(examples.operation("syncIdentity", for: kind))
                try await send(
                    operation,
                    body: OpenAPIExamples.setting(value, at: at, in: identity),
                    example: described
                )
            }
            sent.insert(described)
        }

        // Each operation's parameter examples, all in one request.
        for operation in examples.operations(for: kind) {
            var query: [(String, String)] = []
            var pointers: [String] = []
            var missing: [String] = []
            let parameters =
                (operation.shared.enumerated().map { (["paths", operation.path, "parameters", String($0)], $1) })
                + ((operation.operation["parameters"] as? [Any] ?? []).enumerated().map {
                    (["paths", operation.path, operation.method, "parameters", String($0)], $1)
                })
            for (place, parameter) in parameters {
                let reference = (parameter as? [String: Any])?["$ref"] as? String
                let pointer = reference.map(OpenAPIExamples.target(of:)) ?? place
                guard let parameter = examples.resolved(parameter) as? [String: Any],
                    parameter["in"] as? String == "query", let name = parameter["name"] as? String
                else { continue }
                if let example = parameter["example"] {
                    query.append((name, "\(example)"))
                    pointers.append(OpenAPIExamples.describe(pointer + ["example"]))
                } else if parameter["required"] as? Bool == true {
                    missing.append(name)
                }
            }
            guard !pointers.isEmpty else { continue }
            let id = operation.operation["operationId"] as? String ?? "?"
            #expect(missing.isEmpty, "\(kind): \(id)'s required parameters \(missing) have no example")
            try await send(operation, query: query, example: pointers.joined(separator: ", "))
            sent.formUnion(pointers)
        }

        // Every example of a request was sent.
        let unsent = examples.examples().map(\.pointer)
            .filter { examples.describesRequest($0, for: kind, schemas: schemas) }
            .map(OpenAPIExamples.describe).filter { !sent.contains($0) }
        #expect(
            unsent.isEmpty,
            "\(kind): these examples describe a request, and this test does not send them (see placements): \(unsent)"
        )
    }

    /// `template` with its path parameters filled: the store `alice`.
    static func fill(_ template: String, operation: String) throws -> String {
        var path = template.replacingOccurrences(of: "{store}", with: "alice")
        if let open = path.firstIndex(of: "{") {
            Issue.record("\(operation): no value for the path parameter in \(template)")
            path = String(path[..<open])
        }
        return path
    }

    /// The sample kinds' schemas (HealthObject's) with their examples, each
    /// with where it is.
    static func healthObjectKinds(
        _ examples: OpenAPIExamples
    ) -> [(name: String, examples: [(pointer: String, value: Any)])] {
        let schemas = examples.document["components"].flatMap { ($0 as? [String: Any])?["schemas"] } as? [String: Any]
        let kinds = (schemas?["HealthObject"] as? [String: Any])?["oneOf"] as? [[String: Any]] ?? []
        return kinds.compactMap { kind in
            guard let name = (kind["$ref"] as? String)?.split(separator: "/").last.map(String.init) else { return nil }
            let schema = schemas?[name] as? [String: Any]
            let list = (schema?["examples"] as? [Any] ?? []).enumerated().map {
                ("#/components/schemas/\(name)/examples/\($0)", $1)
            }
            let single = schema?["example"].map { [("#/components/schemas/\(name)/example", $0)] } ?? []
            return (name, list + single)
        }
    }

    @Test("every sample kind of the document has an example")
    func everyKindHasAnExample() throws {
        let kinds = Self.healthObjectKinds(try OpenAPIExamples())
        #expect(!kinds.isEmpty)
        for (name, examples) in kinds {
            #expect(!examples.isEmpty, "components.schemas.\(name) has no example")
        }
    }

    @Test("a single-store node accepts every example of a request the document gives it")
    func singleStore() async throws {
        let examples = try OpenAPIExamples()
        let owner = "owner-token-of-the-examples-0001"
        // Webhooks to loopback, as the example's; its deliveries (nothing listens) give up within a second.
        let configuration = nodeConfiguration {
            $0.webhookHosts = ["127.0.0.1"]
            $0.webhookTimeout = .seconds(1)
        }
        try await withNode(
            policy: AccessPolicy(tokens: [.owner(owner, replicates: true)]),
            configuration: configuration
        ) { node, directory in
            try await node.application().test(.router) { client in
                let tokens = Tokens(owner: owner, administrator: nil, replicator: owner)
                try await Self.sendExamples(examples, kind: .single, client: client, tokens: tokens)
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test("a multi-store node accepts every example of a request the document gives it")
    func multiStore() async throws {
        let examples = try OpenAPIExamples()
        // Webhooks to loopback, as the example's; its deliveries (nothing listens) give up within a second.
        let configuration = nodeConfiguration {
            $0.webhookHosts = ["127.0.0.1"]
            $0.webhookTimeout = .seconds(1)
        }
        try await MultiStoreFixture.with(configuration: configuration) { fixture in
            let registry = fixture.node.registry
            let tokens = Tokens(
                owner: fixture.alice,
                administrator: try registry.issueToken(.administrator()).secret,
                replicator: try registry.issueToken(
                    TokenGrant(store: try StoreName("alice"), owner: false, replicates: true)
                ).secret
            )
            try await fixture.node.application().test(.router) { client in
                try await Self.sendExamples(examples, kind: .multi, client: client, tokens: tokens)
            }
            try await fixture.expectAudits()
        }
    }
}

extension OpenAPIExamples {
    /// A part of the document read as a document of its own (its examples
    /// found with pointers relative to it).
    init(document: [String: Any]) {
        self.document = document
    }
}
