import Anchorage
import AnchorageLog
import AnchorageTestRun
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// What one request or one sample may cost a running `anchorage serve`,
/// measured on the process itself: its peak resident memory and its data
/// file (issue 17).
@Suite("Bounded cost per request and per sample", .startsProcesses())
struct ServerBoundedCostTests {
    static let token = ServeProcessTests.token

    /// A node process over a new store with one owner token.
    static func withServe<R>(_ body: (ServeProcess, URL) async throws -> R) async throws -> R {
        try await withOwnerTokens { directory, tokens in
            let store = directory.appendingPathComponent("store")
            let node = try await ServeProcess(store: store, tokens: tokens)
            do {
                let result = try await body(node, store)
                #expect(await node.terminate() == 0, "\(node.standardError)")
                let (status, output) = try await runAnchorage(["audit", "verify", "--store", store.path])
                #expect(status == 0, "audit verify: \(output)")
                return result
            } catch {
                await node.killNow()
                throw error
            }
        }
    }

    /// Sends `method path` with the owner's token; the status and body.
    /// `timeout` guards against a node that hangs, and is long enough never
    /// to decide a test on a slow machine.
    static func send(
        _ method: HTTPMethod,
        _ path: String,
        port: Int,
        body: String? = nil,
        timeout: TimeAmount = .seconds(120)
    ) async throws -> (status: UInt, body: String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        var text = ""
        for try await chunk in response.body { text += String(buffer: chunk) }
        return (response.status.code, text)
    }

    /// A field of `/proc/<pid>/status`, in bytes (`VmHWM`: peak resident memory).
    static func memory(_ field: String, of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("\(field):") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1_024
    }

    @Test(
        "1-second buckets over one minute stay under 50 MB of memory growth, with data ten years apart (ST-38)"
    )
    func narrowStatisticsOverWideData() async throws {
        try await Self.withServe { node, _ in
            let samples = [
                stepJSON(100, start: "2014-01-01T00:00:00Z", end: "2014-01-01T00:10:00Z"),
                stepJSON(200, start: "2024-01-01T00:00:10Z", end: "2024-01-01T00:00:40Z"),
                stepJSON(
                    70,
                    start: "2023-12-31T23:59:00Z",
                    end: "2024-01-01T00:02:00Z",
                    type: "HKQuantityTypeIdentifierHeartRate"
                )
                .replacingOccurrences(of: "\"unit\":\"count\"", with: "\"unit\":\"count/min\""),
                stepJSON(
                    72,
                    start: "2014-01-01T00:00:00Z",
                    end: "2014-01-01T00:01:00Z",
                    type: "HKQuantityTypeIdentifierHeartRate"
                )
                .replacingOccurrences(of: "\"unit\":\"count\"", with: "\"unit\":\"count/min\""),
            ]
            let saved = try await Self.send(
                .POST,
                "/v1/samples",
                port: node.port,
                body: "[\(samples.joined(separator: ","))]"
            )
            #expect(saved.status == 201, "\(saved.body)")

            let before = try Self.memory("VmHWM", of: node.pid)
            let range = "from=2024-01-01T00:00:00Z&to=2024-01-01T00:00:59Z&interval=1s"
            let steps = try await Self.send(.GET, "/v1/statistics?type=stepCount&\(range)", port: node.port)
            let heart = try await Self.send(
                .GET,
                "/v1/statistics?type=heartRate&options=average&\(range)",
                port: node.port
            )
            let growth = try Self.memory("VmHWM", of: node.pid) - before
            #expect(growth < 50_000_000, "peak memory grew by \(growth) bytes")

            // The answers are the 60 buckets asked for, with the values the samples give.
            #expect(steps.status == 200, "\(steps.body)")
            #expect(heart.status == 200, "\(heart.body)")
            let stepRows = try Self.rows(steps.body)
            let heartRows = try Self.rows(heart.body)
            #expect(stepRows.count == 60)
            #expect(heartRows.count == 60)
            // 200 steps over 30 seconds: 10 through 39 hold 200/30 each.
            let sums = stepRows.map { $0["sum"] as? Double ?? 0 }
            #expect(sums[0..<10].allSatisfy { $0 == 0 })
            #expect(sums[10..<40].allSatisfy { abs($0 - 200.0 / 30) < 1e-9 })
            #expect(sums[40...].allSatisfy { $0 == 0 })
            #expect(heartRows.allSatisfy { ($0["average"] as? Double) == 70 })

            // Answers of more than a thousand rows are assembled a thousand at a time.
            let long = try await Self.send(
                .GET,
                "/v1/statistics?type=stepCount&from=2024-01-01T00:00:00Z&to=2024-01-01T00:41:39Z&interval=1s",
                port: node.port
            )
            let longRows = try Self.rows(long.body)
            #expect(longRows.count == 2_500)
            #expect(longRows.map { $0["sum"] as? Double ?? 0 }.prefix(60) == ArraySlice(sums))
            #expect(Set(longRows.compactMap { $0["startDate"] as? String }).count == 2_500)
        }
    }

    @Test(
        "a 10-year sample costs about what a 1-hour one costs: under 64 KiB of data file, then narrow queries stay small"
    )
    func longSampleCost() async throws {
        try await Self.withServe { node, store in
            let file = store.appendingPathComponent("data.mdb")
            func size() throws -> Int {
                try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
            }
            // A store in use: a day of 10-minute samples, in a few requests.
            for hour in 0..<24 {
                let samples = (0..<6).map { part in
                    let start = String(format: "2019-06-01T%02d:%02d:00Z", hour, part * 10)
                    let end = String(format: "2019-06-01T%02d:%02d:59Z", hour, part * 10 + 9)
                    return stepJSON(Double(10 + part), start: start, end: end)
                }
                let saved = try await Self.send(
                    .POST,
                    "/v1/samples",
                    port: node.port,
                    body: "[\(samples.joined(separator: ","))]"
                )
                #expect(saved.status == 201, "\(saved.body)")
            }
            var growth: [String: Int] = [:]
            // Each a count its interval can hold (VAL-1: a million steps a day at most).
            let shapes = [
                ("1 hour", "2019-07-01T08:00:00Z", "2019-07-01T09:00:00Z", 6_000.0),
                ("10 years", "2014-01-01T00:00:00Z", "2024-01-01T00:00:00Z", 3_652_000),
            ]
            for (name, start, end, steps) in shapes {
                let before = try size()
                let saved = try await Self.send(
                    .POST,
                    "/v1/samples",
                    port: node.port,
                    body: "[\(stepJSON(steps, start: start, end: end))]"
                )
                #expect(saved.status == 201, "\(saved.body)")
                growth[name] = try size() - before
            }
            #expect(growth["10 years"]! < 64 * 1_024, "\(growth)")
            #expect(growth["1 hour"]! < 64 * 1_024, "\(growth)")

            // 1,000 steps a day for ten years: each 1-second bucket holds its share.
            let pid = node.pid
            let memory = try Self.memory("VmHWM", of: pid)
            let narrow = try await Self.send(
                .GET,
                "/v1/statistics?type=stepCount&from=2020-02-29T12:00:00Z&to=2020-02-29T12:00:59Z&interval=1s",
                port: node.port
            )
            #expect(try Self.memory("VmHWM", of: pid) - memory < 50_000_000)
            let rows = try Self.rows(narrow.body)
            #expect(rows.count == 60)
            #expect(rows.allSatisfy { abs(($0["sum"] as? Double ?? 0) - 1_000.0 / 86_400) < 1e-9 }, "\(narrow.body)")
            // Daily buckets over the store's busy day: its samples and the long one's share.
            let days = try await Self.send(
                .GET,
                "/v1/statistics?type=stepCount&from=2019-05-31&to=2019-06-01&interval=1d",
                port: node.port
            )
            let sums = try Self.rows(days.body).map { $0["sum"] as? Double ?? 0 }
            let busy = Double((10...15).reduce(0, +) * 24)
            #expect(sums.count == 2)
            #expect(abs(sums[0] - 1_000) < 1e-6 && abs(sums[1] - (1_000 + busy)) < 1e-6, "\(sums)")
        }
    }

    @Test("a request for more buckets than the cap is refused with their count, before any is computed")
    func bucketCapCountsTheBucketsAskedFor() async throws {
        try await Self.withServe { node, _ in
            let wide = try await Self.send(
                .GET,
                "/v1/statistics?type=stepCount&from=2014-01-01T00:00:00Z&to=2024-01-01T00:00:00Z&interval=30m",
                port: node.port
            )
            #expect(wide.status == 400)
            #expect(wide.body.contains("175297 buckets"), "\(wide.body)")
            // Months counted on the calendar: 100,000 months is 8,334 years.
            let months = try await Self.send(
                .GET,
                "/v1/statistics?type=stepCount&from=2000-01-01T00:00:00Z&to=2024-01-01T00:00:00Z&interval=1mo",
                port: node.port
            )
            #expect(months.status == 200, "\(months.body)")
            #expect(try Self.rows(months.body).count == 289)
        }
    }

    static func rows(_ body: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        return try #require(object["statistics"] as? [[String: Any]])
    }
}
