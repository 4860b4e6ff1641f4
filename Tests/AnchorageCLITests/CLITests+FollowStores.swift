import Anchorage
import AnchorageServer
import AnchorageService
import AnchorageTesting
import ArgumentParser
import Foundation
import Testing

@testable import AnchorageCLI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Command line: follow-stores, every store's changes with one cursor")
struct CLIFollowStoresTests {
    @Test(
        "tokens issue --consumer, then follow-stores --once prints each store's objects of its types as lines; with a cursor file a second run prints only what came since; a deleted store is a line; audit verify passes"
    )
    func followStores() async throws {
        try await withTemporaryDirectory { root in
            let nodeRoot = ["--stores", root.path]
            _ = try await runCLI(["stores", "create", "alice", "bob"] + nodeRoot)
            let consumer = try await runCLI(["tokens", "issue", "--consumer", "--read", "stepCount"] + nodeRoot)
                .trimmingCharacters(in: .newlines)
            let refused = await cliFailure(["tokens", "issue", "--consumer"] + nodeRoot)
            #expect(refused.status == 2 && refused.message.contains("--read"), "\(refused.message)")
            #expect(try await runCLI(["tokens", "list"] + nodeRoot).contains("-\tconsumer read stepCount"))

            var configuration = NodeConfiguration()
            configuration.port = 0
            let node = try MultiStoreNode(root: root, configuration: configuration)
            let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
            let serving = Task { try await node.run { continuation.yield($0) } }
            var iterator = ports.makeAsyncIterator()
            let url = "http://127.0.0.1:\(try #require(await iterator.next()))"
            let admin = try node.registry.issueToken(.administrator()).secret

            func save(_ store: String, _ value: Int, minute: Int) async throws {
                let grant = TokenGrant(store: try StoreName(store), owner: true)
                let secret = try node.registry.issueToken(grant).secret
                var request = URLRequest(url: URL(string: "\(url)/v1/stores/\(store)/samples")!)
                request.httpMethod = "POST"
                request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                let start = 1_717_200_000 + minute * 60
                let dates = [start, start + 60].map {
                    ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double($0)))
                }
                request.httpBody = Data(
                    """
                    [{"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierStepCount",\
                    "startDate":"\(dates[0])","endDate":"\(dates[1])","quantity":{"value":\(value),"unit":"count"}},\
                    {"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierHeartRate",\
                    "startDate":"\(dates[0])","endDate":"\(dates[0])","quantity":{"value":61,"unit":"count/min"}}]
                    """.utf8
                )
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 201)
            }
            /// Waits until the node has recorded every store's last update.
            func settled() async throws {
                for _ in 0..<100 {
                    let heads = try ["alice", "bob"].map { try node.registry.publishedAnchor(of: try StoreName($0)) }
                    if heads.allSatisfy({ $0 != nil }) { return }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }

            try await save("alice", 100, minute: 0)
            try await save("bob", 7, minute: 0)
            try await settled()
            let cursorFile = root.appending(path: "consumer.cursor").path
            let follow = ["follow-stores", "--url", url, "--token", consumer, "--once", "--cursor-file", cursorFile]
            let first = try await runCLI(follow).split(separator: "\n")
            let lines = try first.map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(Set(lines.compactMap { $0["store"] as? String }) == ["alice", "bob"], "\(first)")
            let values = lines.compactMap {
                (($0["added"] as? [String: Any])?["quantity"] as? [String: Any])?["value"] as? Int
            }
            #expect(Set(values) == [100, 7], "heart rate is not the consumer's: \(first)")
            let cursor = try String(contentsOfFile: cursorFile, encoding: .utf8)
            #expect(cursor.range(of: #"^[0-9a-f]{32}-[0-9]+\n$"#, options: .regularExpression) != nil, "\(cursor)")

            // Resumed from the cursor file: only what came since.
            try await save("alice", 55, minute: 5)
            var second = ""
            for _ in 0..<100 where !second.contains(#""value":55"#) {
                second += try await runCLI(follow)
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(second.contains(#""value":55"#) && !second.contains(#""value":7"#), "\(second)")

            var delete = URLRequest(url: URL(string: "\(url)/v1/stores/bob")!)
            delete.httpMethod = "DELETE"
            delete.setValue("Bearer \(admin)", forHTTPHeaderField: "Authorization")
            _ = try await URLSession.shared.data(for: delete)
            let third = try await runCLI(follow)
            #expect(third == #"{"store":"bob","storeDeleted":true}"# + "\n", "\(third)")

            let badToken = await cliFailure(["follow-stores", "--url", url, "--token", "nope", "--once"])
            #expect(badToken.status == 2 && badToken.message.contains("unauthenticated"), "\(badToken.message)")

            await node.stop()
            _ = try? await serving.value
            await node.close()
            let audit = try await runCLI(["audit", "verify", "--store", root.appending(path: "alice").path])
            #expect(audit.contains("agree with a replay"), "\(audit)")
        }
    }
}
