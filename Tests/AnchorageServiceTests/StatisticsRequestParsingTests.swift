import Anchorage
import AnchorageService
import Foundation
import Testing

@Suite("Statistics requests parsed from a query and from command-line values")
struct StatisticsRequestParsingTests {
    static let base = "type=stepCount&from=2024-06-01&to=2024-06-07"

    @Test("a query's fields become the request; absent ones take the documented defaults")
    func queryDefaults() throws {
        let request = try StatisticsRequest(queryString: Self.base)
        #expect(request.type == HKQuantityType(.stepCount))
        #expect(request.options == .cumulativeSum)
        #expect(request.intervalText == "1d" && request.interval.day == 1)
        #expect(request.timeZoneText == "UTC" && request.timeZone.secondsFromGMT() == 0)
        #expect(request.start == Date(timeIntervalSince1970: 1_717_200_000))
        #expect(request.anchor == request.start)
        #expect(request.unit == .count())
        #expect(request.sources.isEmpty)
    }

    @Test("every field of a query, repeated parameters and percent-encoded values")
    func queryFields() throws {
        let request = try StatisticsRequest(
            queryString: "type=heartRate&options=average,min&interval=1h&from=2024-06-01&to=2024-06-01T12:00:00Z"
                + "&anchor=2024-06-01T00:30:00Z&tz=Europe%2FParis&unit=count%2Fs&separateBySource=true"
                + "&sources=com.a,com.b&sources=%C3%A9t%C3%A9&type=heartRate"
        )
        #expect(request.options == [.discreteAverage, .discreteMin, .separateBySource])
        #expect(request.interval.hour == 1 && request.interval.timeZone?.identifier == "Europe/Paris")
        #expect(request.timeZoneText == "Europe/Paris")
        #expect(request.start == Date(timeIntervalSince1970: 1_717_192_800))
        #expect(request.unit.unitString == "count/s")
        #expect(request.sources == ["com.a", "com.b", "été"])
    }

    @Test("command-line values: the zone defaults to the one given, sources are taken whole")
    func arguments() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let request = try StatisticsRequest(
            arguments: .init(
                type: "stepCount",
                options: "sum,duration",
                from: "2024-06-01",
                to: "2024-06-02",
                bySource: true,
                sources: ["com.a,b"]
            ),
            defaultTimeZone: paris
        )
        #expect(request.timeZone == paris && request.timeZoneText == "Europe/Paris")
        #expect(request.start == Date(timeIntervalSince1970: 1_717_192_800))
        #expect(request.options == [.cumulativeSum, .duration, .separateBySource])
        #expect(request.sources == ["com.a,b"])
    }

    /// A query, the error's code and field, and words its message holds.
    struct Hostile: Sendable, CustomTestStringConvertible {
        let query: String
        let code: StatisticsRequestError.Code
        let field: StatisticsRequest.Field?
        let words: String
        var testDescription: String { String(query.prefix(100)) }

        init(_ query: String, _ code: StatisticsRequestError.Code, _ field: StatisticsRequest.Field?, _ words: String) {
            (self.query, self.code, self.field, self.words) = (query, code, field, words)
        }
    }

    static let hostile: [Hostile] = [
        Hostile("", .invalidArgument, .type, "'type' is required, as in type=stepCount"),
        Hostile("%%%&&==&=x&type", .invalidArgument, .type, "'type' is required"),
        Hostile("type=stepz&from=2024-06-01&to=2024-06-02", .unknownType, .type, "type: 'stepz' is not a sample type"),
        Hostile(
            "type=st%C3%A9p%F0%9F%9A%B6&from=2024-06-01&to=2024-06-02",
            .unknownType,
            .type,
            "is not a sample type"
        ),
        Hostile("type=step%00Count&from=2024-06-01&to=2024-06-02", .unknownType, .type, "is not a sample type"),
        Hostile("type=sleepAnalysis&from=2024-06-01&to=2024-06-02", .invalidArgument, .type, "is not a quantity type"),
        Hostile("type=\(String(repeating: "x", count: 100_000))", .invalidArgument, .type, "longer than 1024 bytes"),
        Hostile(
            "type=stepCount",
            .invalidArgument,
            .from,
            "'from' and 'to' are required, as in from=2024-06-01&to=2024-06-07"
        ),
        Hostile("type=stepCount&from=2024-06-01", .invalidArgument, .to, "are required"),
        Hostile("type=stepCount&from=2024-06-09&to=2024-06-07", .invalidArgument, .from, "'from' is after 'to'"),
        Hostile("type=stepCount&from=yesterday&to=2024-06-02", .invalidArgument, .from, "'from' must be a day such as"),
        Hostile("type=stepCount&from=-2024-06-01&to=2024-06-02", .invalidArgument, .from, "must be a day"),
        Hostile("type=stepCount&from=99999-01-01&to=2024-06-02", .invalidArgument, .from, "must be a day"),
        Hostile("type=stepCount&from=2024-13-01&to=2024-06-02", .invalidArgument, .from, "must be a day"),
        Hostile(base + "&anchor=2024-06-01Tnoon", .invalidArgument, .anchor, "'anchor' must be a day"),
        Hostile(base + "&interval=0d", .invalidArgument, .interval, "interval: an interval is a positive count"),
        Hostile(base + "&interval=-1d", .invalidArgument, .interval, "a positive count"),
        Hostile(base + "&interval=9999999999d", .invalidArgument, .interval, "a positive count"),
        Hostile(base + "&interval=1fortnight", .invalidArgument, .interval, "interval: an interval's unit is"),
        Hostile(base + "&tz=Mars%2FOlympus", .invalidArgument, .tz, "tz: unknown time zone 'Mars/Olympus'"),
        Hostile(base + "&unit=zork", .invalidArgument, .unit, "(UNIT-1)"),
        Hostile(
            base + "&unit=kg",
            .incompatibleUnit,
            .unit,
            "unit: HKQuantityTypeIdentifierStepCount cannot be expressed in kg"
        ),
        Hostile(base + "&options=sum,bogus", .invalidArgument, .options, "options: unknown statistics option 'bogus'"),
        // ST-1 in the names the query takes, not Swift's (discreteMin, cumulativeSum).
        Hostile(
            base + "&options=min",
            .invalidArgument,
            .options,
            "options: min is for discrete types such as heartRate; stepCount takes sum, mostRecent or duration (ST-1)"
        ),
        Hostile(
            base + "&options=average,duration,max",
            .invalidArgument,
            .options,
            "options: average and max are for discrete types such as heartRate; stepCount takes sum"
        ),
        Hostile(
            "type=heartRate&from=2024-06-01&to=2024-06-07",
            .invalidArgument,
            .options,
            "options: sum (the default) is for cumulative types such as stepCount; "
                + "heartRate takes average, min, max, mostRecent or duration (ST-1)"
        ),
        Hostile(
            "type=HKQuantityTypeIdentifierBodyMass&options=max,sum&from=2024-06-01&to=2024-06-07",
            .invalidArgument,
            .options,
            "options: sum is for cumulative types such as stepCount; bodyMass takes average, min, max"
        ),
        // Empty is not the default, and two different values are not the last one.
        Hostile(base + "&options=", .invalidArgument, .options, "'options' is empty; give sum, average, min, max"),
        Hostile(base + "&interval=", .invalidArgument, .interval, "'interval' is empty; give a length such as"),
        Hostile(base + "&separateBySource=", .invalidArgument, .separateBySource, "'separateBySource' is empty"),
        Hostile(
            base + "&options=sum&options=min",
            .invalidArgument,
            .options,
            "'options' is given more than once, with different values"
        ),
        Hostile(base + "&interval=1d&interval=1h", .invalidArgument, .interval, "'interval' is given more than once"),
        Hostile(base + "&type=heartRate", .invalidArgument, .type, "'type' is given more than once"),
        Hostile(base + "&tz=UTC&tz=Europe%2FParis", .invalidArgument, .tz, "'tz' is given more than once"),
        Hostile(
            base + "&separateBySource=maybe",
            .invalidArgument,
            .separateBySource,
            "separateBySource is true or false"
        ),
        Hostile(
            base + "&sources=" + (0...100).map { "s\($0)" }.joined(separator: ","),
            .invalidArgument,
            .sources,
            "sources: 1 to 100 bundle identifiers"
        ),
        Hostile(
            base + "&sources=" + String(repeating: "é", count: 200),
            .invalidArgument,
            .sources,
            "at most 255 bytes"
        ),
    ]

    @Test("hostile queries are typed errors naming the field, in words, never a crash", arguments: hostile)
    func hostileQueries(_ hostile: Hostile) {
        let (query, code, field, words) = (hostile.query, hostile.code, hostile.field, hostile.words)
        let error = #expect(throws: StatisticsRequestError.self) { try StatisticsRequest(queryString: query) }
        #expect(error?.code == code && error?.field == field, "\(String(describing: error))")
        #expect(error?.message.contains(words) == true, "\(String(describing: error))")
        #expect((error?.message.utf8.count ?? 0) < 2_000)
    }

    @Test("command-line mistakes say the same words, naming the options as typed")
    func commandLineWords() {
        let cases: [(StatisticsRequest.Arguments, String)] = [
            (.init(type: "stepCount", from: "2024-06-02", to: "2024-06-01"), "--from is after --to"),
            (.init(type: "stepCount", from: "yesterday", to: "2024-06-01"), "--from must be a day such as 2024-06-01"),
            (.init(type: "sleepAnalysis", from: "2024-06-01", to: "2024-06-01"), "--type: 'sleepAnalysis' is not a"),
            (.init(type: "stepCount", from: "2024-06-01", to: "2024-06-01", tz: "Mars"), "--tz: unknown time zone"),
            (.init(type: "stepCount", from: "2024-06-01", to: "2024-06-01", unit: "kg"), "--unit: HKQuantityType"),
            (.init(type: "stepCount", from: "2024-06-01", to: "2024-06-01", sources: [""]), "--source: 1 to 100"),
            (.init(type: "", from: "2024-06-01", to: "2024-06-01"), "--type is required, as in --type stepCount"),
            (.init(type: "stepCount", from: "", to: ""), "--from and --to are required, as in --from 2024-06-01 --to"),
            (
                .init(type: "stepCount", options: "min", from: "2024-06-01", to: "2024-06-01"),
                "--options: min is for discrete types such as heartRate; stepCount takes sum, mostRecent or duration"
            ),
            (
                .init(type: "heartRate", from: "2024-06-01", to: "2024-06-01"),
                "--options: sum is for cumulative types such as stepCount; heartRate takes average, min, max"
            ),
        ]
        for (arguments, words) in cases {
            let error = #expect(throws: StatisticsRequestError.self) { try StatisticsRequest(arguments: arguments) }
            #expect(error?.message.contains(words) == true, "\(String(describing: error))")
        }
    }
}
