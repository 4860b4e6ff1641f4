import Anchorage
import AnchorageLog
import AnchorageServer
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The owner's token in tests, and two apps' tokens.
enum Tokens {
    static let owner = "owner-token-0123456789"
    /// Reads steps and heart rate, shares steps.
    static let dashboard = "dashboard-token-0123456789"
    /// Shares (and so reads its own) body mass; reads nothing else.
    static let scale = "scale-token-0123456789"

    static let dashboardSource = HKSource(name: "Dashboard", bundleIdentifier: "com.example.dashboard")
    static let scaleSource = HKSource(name: "Scale", bundleIdentifier: "com.example.scale")

    static var policy: AccessPolicy {
        AccessPolicy(tokens: [
            .owner(owner),
            .init(
                secret: dashboard,
                principal: dashboardSource,
                read: [HKQuantityType(.stepCount), HKQuantityType(.heartRate)],
                share: [HKQuantityType(.stepCount)]
            ),
            .init(secret: scale, principal: scaleSource, read: [], share: [HKQuantityType(.bodyMass)]),
        ])
    }
}

/// A node configuration changed by `modify`.
func nodeConfiguration(_ modify: (inout NodeConfiguration) -> Void) -> NodeConfiguration {
    var configuration = NodeConfiguration()
    modify(&configuration)
    return configuration
}

/// A node over a new temporary store; removed afterwards.
func withNode<R>(
    policy: AccessPolicy = AccessPolicy(),
    configuration base: NodeConfiguration = NodeConfiguration(),
    _ body: (AnchorageNode, URL) async throws -> R
) async throws -> R {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-node-\(UUID().uuidString)")
    var configuration = base
    configuration.port = 0
    configuration.accessPolicy = policy
    var storeConfiguration = HKHealthStore.Configuration()
    storeConfiguration.log.durability = .none
    let node = try await AnchorageNode(
        directory: directory,
        configuration: configuration,
        storeConfiguration: storeConfiguration
    )
    do {
        let result = try await body(node, directory)
        await node.close()
        try? FileManager.default.removeItem(at: directory)
        return result
    } catch {
        await node.close()
        try? FileManager.default.removeItem(at: directory)
        throw error
    }
}

extension TestClientProtocol {
    /// Sends a request with an optional bearer token and JSON body.
    func send(
        _ method: HTTPRequest.Method,
        _ uri: String,
        token: String? = nil,
        json: String? = nil
    ) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The body as a JSON object.
    var object: [String: Any] {
        get throws {
            let data = Data(text.utf8)
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    /// The error code of a JSON error body.
    var errorCode: String? { (try? object)?["code"] as? String }
}

/// A step-count sample as the API's JSON, with a fixed uuid if given.
func stepJSON(
    _ count: Double,
    start: String = "2024-06-01T08:00:00Z",
    end: String = "2024-06-01T08:10:00Z",
    uuid: UUID = UUID(),
    unit: String = "count",
    type: String = "HKQuantityTypeIdentifierStepCount"
) -> String {
    """
    {"kind":"quantitySample","uuid":"\(uuid.uuidString)","type":"\(type)",\
    "startDate":"\(start)","endDate":"\(end)","quantity":{"unit":"\(unit)","value":\(count)},\
    "sourceRevision":{"source":{"name":"Tests","bundleIdentifier":"com.example.tests"}}}
    """
}

/// The audit every stateful test ends with: the store's projections equal
/// a replay of its log. Opens the store beside a node that may still hold it.
func expectAuditPasses(
    _ directory: URL,
    sealing: EventLog.Sealing = .off,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    var configuration = HKHealthStore.Configuration()
    configuration.log.durability = .none
    configuration.log.sealing = sealing
    let owner = HKHealthStore(directory: directory, configuration: configuration)
    let disagreement = try await owner.eventLog().checkProjections()
    #expect(disagreement == nil, "audit: the projections equal a replay", sourceLocation: sourceLocation)
    await owner.close()
}

/// Runs the `anchorage` binary beside the tests to the end, with `input`
/// on its standard input; its status and both outputs.
func runAnchorage(_ arguments: [String], input: String? = nil) async throws -> (Int32, String) {
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("anchorage")
    let (status, output) = try await ChildProcess.run(binary.path, arguments, input: input)
    return (status, output)
}

/// The value of the unlabelled metric `name` in a Prometheus exposition.
func metricValue(_ name: String, in exposition: String) -> Double? {
    for line in exposition.split(separator: "\n") where line.hasPrefix(name + " ") {
        return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
    }
    return nil
}
