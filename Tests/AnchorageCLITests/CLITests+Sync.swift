import Anchorage
import AnchorageServer
import ArgumentParser
import Foundation
import Testing

@testable import AnchorageCLI

@Suite("Command line: sync")
struct CLISyncTests {
    @Test("sync --once pulls and pushes with a node, then has nothing to do; a dead peer is a runtime error")
    func syncWithNode() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-sync-\(UUID())")
        defer { try? FileManager.default.removeItem(at: base) }
        var configuration = NodeConfiguration()
        configuration.port = 0
        let node = try await AnchorageNode(directory: base.appendingPathComponent("node"), configuration: configuration)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let serving = Task { try await node.run { continuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let peer = "http://127.0.0.1:\(port)"

        let onNode = HKHealthStore(directory: base.appendingPathComponent("node"))
        let steps = HKQuantityType(.stepCount)
        func sample(_ minute: Double) -> HKQuantitySample {
            HKQuantitySample(
                type: steps,
                quantity: HKQuantity(unit: .count(), doubleValue: 10),
                start: Date(timeIntervalSince1970: 1_717_200_000 + minute * 60),
                end: Date(timeIntervalSince1970: 1_717_200_060 + minute * 60)
            )
        }
        try await onNode.save((0..<12).map { sample(Double($0)) })
        let local = base.appendingPathComponent("local").path
        let store = HKHealthStore(directory: URL(fileURLWithPath: local))
        try await store.save(sample(100))
        await store.close()

        let first = try await runCLI(["sync", "--store", local, "--peer", peer])
        #expect(first.contains("pulled 12 entries"))
        #expect(first.contains("pushed 1 entries"))
        // The entry pushed comes back as the node's newest: the checkpoint
        // moves past it without sending it; then there is nothing to do.
        let echo = try await runCLI(["sync", "--store", local, "--peer", peer, "--pull"])
        #expect(echo == "pulled 0 entries in 1 batches (0 already held)\n")
        let again = try await runCLI(["sync", "--store", local, "--peer", peer, "--pull"])
        #expect(again == "pulled 0 entries in 0 batches (0 already held)\n")
        let onNodeNow = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: steps)],
            sortDescriptors: []
        )
        .result(for: onNode)
        #expect(onNodeNow.count == 13)

        await onNode.close()
        await node.stop()
        _ = try? await serving.value
        await node.close()
        do {
            _ = try await runCLI(["sync", "--store", local, "--peer", peer])
            Issue.record("a sync with a stopped node succeeded")
        } catch {
            #expect(AnchorageCommand.exitCode(for: error) == .failure, "\(error)")
            // In words: what happened at the socket, no errno dump.
            #expect("\(error)".contains("could not be reached: the connection was refused"), "\(error)")
            #expect(!"\(error)".contains("errno"), "\(error)")
        }
        for arguments in [["sync", "--store", local, "--peer", "ftp://example.com"], ["sync", "--store", local]] {
            do {
                _ = try await runCLI(arguments)
                Issue.record("accepted \(arguments)")
            } catch {
                #expect(AnchorageCommand.exitCode(for: error) == .validationFailure, "\(arguments): \(error)")
            }
        }
    }
}
