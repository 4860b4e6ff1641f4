import Anchorage
import AnchorageService
import AnchorageTesting
import Foundation
import Testing

@Suite("The command line's and the query's parsers agree")
struct StatisticsRequestPropertyTests {
    /// Command-line values, some valid, some not, and the query that asks
    /// for the same thing.
    static func generated(using random: inout SeededGenerator) -> (StatisticsRequest.Arguments, String) {
        func pick(_ choices: [String]) -> String { choices.randomElement(using: &random)! }
        func maybe(_ choices: [String]) -> String? { Bool.random(using: &random) ? nil : pick(choices) }
        let days = ["2024-06-01", "2024-06-13", "2024-02-29", "2023-12-31T23:30:00Z", "2024-06-13T08:00:00+02:00"]
        var arguments = StatisticsRequest.Arguments(
            type: pick(["stepCount", "heartRate", "bodyMass", "HKQuantityTypeIdentifierActiveEnergyBurned", "stepz"]),
            from: pick(days + ["yesterday"]),
            to: pick(days)
        )
        var query = [("type", arguments.type), ("from", arguments.from), ("to", arguments.to)]
        if let options = maybe(["sum", "average,min,max", "mostRecent", "duration,sum", "avg", "bogus"]) {
            arguments.options = options
            query.append(("options", options))
        }
        if let interval = maybe(["15m", "1h", "1d", "1w", "1mo", "1y", "0d"]) {
            arguments.interval = interval
            query.append(("interval", interval))
        }
        arguments.anchor = maybe(days)
        // Always given: without it, each front end has its own default
        // (this machine's zone on the command line, UTC over HTTP).
        arguments.tz = pick(["UTC", "Europe/Paris", "America/St_Johns", "Asia/Kathmandu", "Mars/Olympus"])
        arguments.unit = maybe(["count", "count/min", "kg", "lb", "kcal", "zork"])
        arguments.bySource = Bool.random(using: &random)
        arguments.sources = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            pick(["com.example.watch", "été.app", "🚶.walker", "a/b?c=d&e", "x"])
        }
        query += [("anchor", arguments.anchor), ("tz", arguments.tz), ("unit", arguments.unit)]
            .compactMap { name, value in value.map { (name, $0) } }
        if arguments.bySource { query.append(("separateBySource", "true")) }
        if !arguments.sources.isEmpty { query.append(("sources", arguments.sources.joined(separator: ","))) }
        query.shuffle(using: &random)
        let text = query.map { name, value in
            name + "=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)
        }.joined(separator: "&")
        return (arguments, text)
    }

    @Test(
        "for generated requests, both parsers give equal requests, or errors of the same code and field",
        arguments: testSeeds([0x57A7, 0x5EED])
    )
    func sameRequests(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let utc = try #require(TimeZone(identifier: "UTC"))
        var valid = 0
        for index in 0..<500 {
            let (arguments, query) = Self.generated(using: &random)
            let fromArguments = Result { () throws(StatisticsRequestError) in
                try StatisticsRequest(arguments: arguments, defaultTimeZone: utc)
            }
            let fromQuery = Result { () throws(StatisticsRequestError) in try StatisticsRequest(queryString: query) }
            switch (fromArguments, fromQuery) {
            case (.success(let left), .success(let right)):
                valid += 1
                #expect(left == right, "request \(index): \(query)")
            case (.failure(let left), .failure(let right)):
                #expect(left.code == right.code && left.field == right.field, "request \(index): \(left) / \(right)")
            default:
                Issue.record("request \(index): \(fromArguments) but \(fromQuery) for \(query)")
            }
        }
        #expect(valid > 20)
    }
}
