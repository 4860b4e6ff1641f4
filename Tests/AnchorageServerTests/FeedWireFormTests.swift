import Anchorage
import AnchorageCLI
import AnchorageServer
import AnchorageTesting
import ArgumentParser
import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing

/// Runs `anchorage` in-process with `arguments`; what it wrote.
private func runCommand(_ arguments: [String]) async throws -> String {
    let output = CLIOutput()
    try await CLIOutput.$current.withValue(output) {
        let command = try AnchorageCommand.parseAsRoot(arguments)
        if var command = command as? any AsyncParsableCommand { try await command.run() }
    }
    return output.captured
}

@Suite("The change feed's one wire form: HTTP and the command line")
struct FeedWireFormTests {
    /// The stream's text up to and including its first anchor line: the
    /// catch-up page when it is the only one.
    static func firstPage(port: Int, query: String) async throws -> String {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/changes?stream=ndjson&\(query)")
        request.method = .GET
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        #expect(response.status == .ok)
        var text = ""
        for try await chunk in response.body {
            text += String(buffer: chunk)
            if let anchor = text.range(of: #"{"anchor":""#),
                let newline = text[anchor.upperBound...].firstIndex(of: "\n")
            {
                return String(text[...newline])
            }
        }
        Issue.record("the stream ended before its first anchor line: \(text)")
        return text
    }

    @Test(
        "GET /v1/changes?stream=ndjson and anchorage changes print byte-identical lines, a deletion as {\"deleted\":{\"uuid\":…}}",
        arguments: testSeeds([2, 13, 31])
    )
    func sameLines(seed: UInt64) async throws {
        let clock = HandClock()
        try await withNode(configuration: nodeConfiguration { $0.clock = clock.store }) { node, directory in
            let (http, middle, deletions) = try await clock.live(node) { client in
                let port = try #require(client.port)
                var random = SeededGenerator(seed: seed)
                var live: [UUID] = []
                var deletions = 0
                var middle: String?
                for commit in 0..<10 {
                    if commit == 4 {
                        let page = try await client.send(.get, "/v1/changes?types=stepCount,heartRate")
                        middle = try page.object["newAnchor"] as? String
                    }
                    if !live.isEmpty && (commit == 6 || Int.random(in: 0..<3, using: &random) == 0) {
                        let gone = live.remove(at: Int.random(in: 0..<live.count, using: &random))
                        let answer = try await client.send(.delete, "/v1/samples/\(gone.uuidString)")
                        #expect(answer.status == .noContent)
                        deletions += 1
                        continue
                    }
                    var samples: [String] = []
                    for _ in 0..<Int.random(in: 1...3, using: &random) {
                        let id = UUID()
                        let value = Double(Int.random(in: 1...150, using: &random))
                        if Bool.random(using: &random) {
                            samples.append(stepJSON(value, uuid: id))
                            live.append(id)
                        } else {
                            samples.append(
                                stepJSON(value, uuid: id, unit: "count/min", type: "HKQuantityTypeIdentifierHeartRate")
                            )
                        }
                    }
                    let saved = try await client.send(.post, "/v1/samples", json: "[\(samples.joined(separator: ","))]")
                    #expect(saved.status == .created, "\(saved.text)")
                }
                // The node's lines, read while it serves; the command reads
                // the same store afterwards.
                var http: [String] = []
                for since in [nil, middle] {
                    let query = "types=stepCount,heartRate" + (since.map { "&since=\($0)" } ?? "")
                    http.append(try await Self.firstPage(port: port, query: query))
                }
                return (http, middle, deletions)
            }
            for (since, http) in zip([nil, middle], http) {
                let cli = try await runCommand(
                    ["changes", "--store", directory.path, "--type", "stepCount", "--type", "heartRate"]
                        + (since.map { ["--since", $0] } ?? [])
                )
                #expect(http == cli, "since \(since ?? "the start")")
                #expect(cli.hasPrefix(#"{"added":{"#) || cli.hasPrefix(#"{"deleted":{"#), "\(cli)")
                #expect(!cli.contains(#"{"deleted":""#), "the old form is gone")
                if deletions > 0 {
                    #expect(cli.contains(#"{"deleted":{"uuid":""#), "\(cli)")
                }
            }
            try await expectAuditPasses(directory)
        }
    }
}
