import Anchorage
import AnchorageService
import Foundation
import NIOCore
import Testing

@Suite("A statistics request's table and its writers")
struct StatisticsTableTests {
    /// A store with 600, 1200 and 3000 steps on 13 June 2024, from two
    /// sources, and a heart rate.
    static func withStore(_ body: (HKHealthStore) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-table-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = HKHealthStore(directory: directory)
        func steps(_ value: Double, _ start: String, minutes: Double) -> HKQuantitySample {
            let start = try! Date(start, strategy: .iso8601)
            return HKQuantitySample(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .count(), doubleValue: value),
                start: start,
                end: start.addingTimeInterval(minutes * 60)
            )
        }
        try await store.save([
            steps(600, "2024-06-13T06:21:00Z", minutes: 10), steps(1200, "2024-06-13T07:00:00Z", minutes: 30),
            steps(3000, "2024-06-13T16:00:00Z", minutes: 60),
        ])
        do {
            try await body(store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    static func request(_ options: String = "sum", interval: String = "1d") throws -> StatisticsRequest {
        try StatisticsRequest(
            arguments: .init(
                type: "stepCount",
                options: options,
                interval: interval,
                from: "2024-06-12",
                to: "2024-06-14",
                tz: "Europe/Paris"
            )
        )
    }

    @Test("the table's rows are the store's query results, bucket for bucket, empty ones included")
    func rowsAreTheQuerysResults() async throws {
        try await Self.withStore { store in
            for (options, interval) in [("sum", "1d"), ("sum,duration", "1h"), ("mostRecent", "15m")] {
                let request = try Self.request(options, interval: interval)
                let table = try request.table(from: store)
                let collection = try await request.descriptor.result(for: store, from: request.start, to: request.end)
                var expected: [StatisticsRow] = []
                collection.enumerateStatistics(from: request.start, to: request.end) { statistics, _ in
                    expected.append(StatisticsRow(statistics, options: request.options, unit: request.unit))
                }
                #expect(table.rows == expected, "\(options) \(interval)")
                #expect(table.rows.compactMap(\.values.sum).reduce(0, +) == (options.contains("sum") ? 4800 : 0))
            }
        }
    }

    @Test("more buckets than one request may compute is a typed error saying how many; huge intervals are one bucket")
    func bucketBound() async throws {
        try await Self.withStore { store in
            let wide = try StatisticsRequest(queryString: "type=stepCount&from=0001-01-01&to=9999-12-31&interval=1s")
            let error = #expect(throws: StatisticsRequestError.self) { try wide.table(from: store) }
            #expect(error?.message.contains("buckets, more than the 100000 one request may compute") == true)
            let months = try StatisticsRequest(queryString: "type=stepCount&from=0001-01-01&to=9999-12-31&interval=1mo")
            #expect(throws: StatisticsRequestError.self) { try months.checkedBucketCount(in: store) }
            let huge = try StatisticsRequest(
                queryString: "type=stepCount&from=2024-06-01&to=2024-06-30&interval=999999999y"
            )
            #expect(try huge.table(from: store).rows.count == 1)
        }
    }

    @Test("the writers' exact output: text table, CSV, the command line's JSON, the HTTP answer, the chart")
    func writers() async throws {
        try await Self.withStore { store in
            let table = try Self.request().table(from: store)
            #expect(
                table.textTable() == [
                    "start (Europe/Paris)  sum [count]", "2024-06-12 00:00", "2024-06-13 00:00             4800",
                    "2024-06-14 00:00",
                ]
            )
            #expect(
                table.csv() == [
                    "start,end,sum", "2024-06-11T22:00:00Z,2024-06-12T22:00:00Z,",
                    "2024-06-12T22:00:00Z,2024-06-13T22:00:00Z,4800", "2024-06-13T22:00:00Z,2024-06-14T22:00:00Z,",
                ]
            )
            #expect(
                table.commandLineJSON()
                    == #"[{"start": "2024-06-11T22:00:00Z", "end": "2024-06-12T22:00:00Z", "unit": "count", "sum": null},"#
                    + "\n"
                    + #" {"start": "2024-06-12T22:00:00Z", "end": "2024-06-13T22:00:00Z", "unit": "count", "sum": 4800},"#
                    + "\n"
                    + #" {"start": "2024-06-13T22:00:00Z", "end": "2024-06-14T22:00:00Z", "unit": "count", "sum": null}]"#
            )
            let json = try table.json(buckets: 3)
            #expect(
                String(buffer: json)
                    == #"{"interval":"1d","options":["sum"],"statistics":["#
                    + #"{"endDate":"2024-06-12T22:00:00Z","startDate":"2024-06-11T22:00:00Z"},"#
                    + #"{"endDate":"2024-06-13T22:00:00Z","startDate":"2024-06-12T22:00:00Z","sum":4800},"#
                    + #"{"endDate":"2024-06-14T22:00:00Z","startDate":"2024-06-13T22:00:00Z"}],"#
                    + #""timeZone":"Europe/Paris","type":"HKQuantityTypeIdentifierStepCount","unit":"count"}"#
            )
            #expect(
                table.chart(width: 8) == [
                    "sum [count], Europe/Paris", "2024-06-12 00:00", "2024-06-13 00:00  ████████  4800",
                    "2024-06-14 00:00",
                ]
            )
        }
    }

    @Test("durations are headed in seconds, not in the table's unit, in the table and the chart")
    func durationHeading() async throws {
        try await Self.withStore { store in
            let table = try Self.request("duration").table(from: store)
            #expect(table.textTable().first == "start (Europe/Paris)  duration [s]")
            #expect(table.textTable()[2].hasSuffix(" 6000"))
            #expect(table.chart().first == "duration [s], Europe/Paris")
            #expect(table.csv().first == "start,end,duration (s)")
            #expect(table.commandLineJSON().contains(#""duration (s)": 6000"#))
        }
    }

    @Test("by source: the table and CSV get a source column, `all` on the merged line; JSON lists the sources")
    func bySource() async throws {
        try await Self.withStore { store in
            let request = try StatisticsRequest(
                arguments: .init(type: "stepCount", from: "2024-06-13", to: "2024-06-13", tz: "UTC", bySource: true)
            )
            let table = try request.table(from: store)
            let row = try #require(table.rows.first)
            let source = try #require(row.sources?.first)
            #expect(row.sources?.count == 1 && source.values.sum == 4800 && row.values.sum == 4800)
            let id = source.bundleIdentifier
            #expect(table.textTable().first?.hasPrefix("start (GMT)") == true)
            #expect(table.textTable().first?.contains("  source  sum [count]") == true)
            #expect(table.textTable().dropFirst().map { $0.hasSuffix("4800") } == [true, true])
            #expect(
                table.csv() == [
                    "start,end,source,sum", "2024-06-13T00:00:00Z,2024-06-14T00:00:00Z,all,4800",
                    "2024-06-13T00:00:00Z,2024-06-14T00:00:00Z,\(id),4800",
                ]
            )
            #expect(
                table.commandLineJSON().hasSuffix(
                    #""sum": 4800, "sources": [{"bundleIdentifier": "\#(id)", "sum": 4800}]}]"#
                )
            )
            #expect(String(buffer: try table.json()).contains(#""sources":[{"bundleIdentifier":"\#(id)","#))
        }
    }
}
