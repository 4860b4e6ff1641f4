import AnchorageServer
import Foundation

/// A node a suite runs on loopback, on a port of its choosing.
struct BenchNode {
    let node: AnchorageNode
    let port: Int
    /// The node's `run`, until it stops.
    let serving: Task<Void, any Error>

    /// Starts a node on `directory`; `configure` changes its configuration
    /// first.
    static func start(
        at directory: URL,
        _ configure: (inout NodeConfiguration) -> Void = { _ in }
    ) async throws -> BenchNode {
        var configuration = NodeConfiguration()
        configuration.port = 0
        configure(&configuration)
        let node = try await AnchorageNode(directory: directory, configuration: configuration)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let serving = Task { try await node.run { port in portContinuation.yield(port) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw BenchFailure(message: "the node did not start") }
        return BenchNode(node: node, port: port, serving: serving)
    }

    /// Stops the node, waits until it has stopped serving, and closes its
    /// store.
    func stop() async throws {
        await node.stop()
        try await serving.value
        await node.close()
    }
}
