import Anchorage
import AnchorageTesting
import Foundation
import Testing

extension SyncProcessTests {
    /// Two nodes that imported one export hold the same uuids under
    /// different origins. One deletes a sample and purges its data; two new
    /// stores pull from both nodes, in either order. In each the sample is
    /// gone (the delete reaches one of them before any save it can read:
    /// a tombstone that the other node's save arrives at), the rest is
    /// there once, and both show the same state.
    @Test(
        "OBJ-1: one export imported on two nodes, a delete and a purge on one: stores pulling from both, in either order, converge"
    )
    func sharedImportDeletedInEitherOrder() async throws {
        let (directory, tokens, stores) = try Self.clusterFiles()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = try Self.exportFile()
        let (a, b) = (stores[0], stores[1])
        for store in [a, b] {
            let (status, output) = try await runAnchorage(["import", export.path, "--store", store.path])
            #expect(status == 0, "import: \(output)")
        }

        // On A: delete one step sample, then purge its data.
        let owner = HKHealthStore(directory: a)
        let imported = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
            sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: owner)
        let victim = try #require(imported.first).uuid
        #expect(try await owner.deleteObjects(withUUIDs: [victim]) == 1)
        await owner.close()
        let tomorrow = ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400))
        let (purged, purgeOutput) = try await runAnchorage(["purge", "--store", a.path, "--deleted-before", tomorrow])
        #expect(purged == 0 && purgeOutput.contains("purged the data of 1 deleted samples"), "\(purgeOutput)")
        let expected = Set(imported.map(\.uuid)).subtracting([victim])

        let nodeA = try await ServeProcess(store: a, tokens: tokens)
        let nodeB = try await ServeProcess(store: b, tokens: tokens)
        var pulled: [URL] = []
        for (name, order) in [("a-then-b", [nodeA, nodeB]), ("b-then-a", [nodeB, nodeA])] {
            let store = directory.appendingPathComponent(name)
            for node in order {
                let (status, output) = try await runAnchorage([
                    "sync", "--store", store.path, "--peer", "http://127.0.0.1:\(node.port)",
                    "--token", Self.peerToken, "--pull",
                ])
                #expect(status == 0, "\(name): sync: \(output)")
            }
            pulled.append(store)
        }
        #expect(await nodeA.terminate() == 0, "\(nodeA.standardError)")
        #expect(await nodeB.terminate() == 0, "\(nodeB.standardError)")

        var digests: [String] = []
        for store in pulled {
            let reader = HKHealthStore(directory: store)
            let shown = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                sortDescriptors: []
            ).result(for: reader)
            #expect(shown.count == Set(shown.map(\.uuid)).count, "\(store.lastPathComponent): a sample shown twice")
            #expect(Set(shown.map(\.uuid)) == expected, "\(store.lastPathComponent)")
            digests.append(try reader.stateDigest())
            await reader.close()
        }
        #expect(digests[0] == digests[1], "the two orders end in different states")
        // Every store touched: projections equal a replay of the log.
        for store in [a, b] + pulled {
            let (status, output) = try await runAnchorage(["audit", "verify", "--store", store.path])
            #expect(status == 0, "audit verify \(store.lastPathComponent): \(output)")
        }
    }

    /// Fixtures/apple-health/export-small.xml.
    static func exportFile() throws -> URL {
        var directory = URL(fileURLWithPath: #filePath)
        while directory.path != "/" {
            directory.deleteLastPathComponent()
            let candidate = directory.appendingPathComponent("Fixtures/apple-health/export-small.xml")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        throw ServeFailure(description: "Fixtures/apple-health/export-small.xml not found above \(#filePath)")
    }
}
