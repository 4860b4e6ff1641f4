import Anchorage
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// What a client that asks badly is told: a parameter with a few possible
/// values given empty, unknown, or twice with different values is refused
/// naming the values, never read as the default or as one of the two; an
/// option that does not suit the type is refused in the query's own names.
@Suite("HTTP API: query parameters that take one of a few values")
struct ServerQueryChoiceTests {
    private func message(_ response: TestResponse) throws -> String {
        try #require(try response.object["message"] as? String)
    }

    @Test(
        "format, sort and stream: empty, unknown or given twice differently is 400 invalidArgument naming the choices"
    )
    func choices() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let routes = "/v1/workouts/\(UUID().uuidString)/routes"
                let samples = "/v1/samples?type=stepCount"
                let changes = "/v1/changes?types=stepCount"
                let cases = [
                    (routes + "?format=", "'format' is geojson or gpx"),
                    (routes + "?format=kml", "'format' is geojson or gpx"),
                    (routes + "?format=gpx&format=geojson", "'format' is geojson or gpx, given once"),
                    (routes + "?format=GPX", "'format' is geojson or gpx"),
                    (samples + "&sort=", "'sort' is startDate, -startDate, endDate or -endDate"),
                    (samples + "&sort=size", "'sort' is startDate, -startDate, endDate or -endDate"),
                    (
                        samples + "&sort=startDate&sort=-startDate",
                        "'sort' is startDate, -startDate, endDate or -endDate"
                    ),
                    (changes + "&stream=", "'stream' is ndjson or sse"),
                    (changes + "&stream=json", "'stream' is ndjson or sse"),
                    (changes + "&stream=ndjson&stream=sse", "'stream' is ndjson or sse, given once"),
                ]
                for (path, words) in cases {
                    let response = try await client.send(.get, path)
                    #expect(response.status == .badRequest, "\(path): \(response.text)")
                    #expect(response.errorCode == "invalidArgument", "\(path): \(response.text)")
                    #expect(try message(response).hasPrefix(words), "\(path): \(response.text)")
                }
                // A value given twice alike is that value; the documented ones are read.
                let twice = try await client.send(.get, routes + "?format=gpx&format=gpx")
                #expect(twice.status == .notFound, "past the format, to the workout: \(twice.text)")
                for path in [routes + "?format=gpx", routes + "?format=geojson", routes] {
                    #expect(try await client.send(.get, path).status == .notFound, "\(path)")
                }
                for sort in ["startDate", "-startDate", "endDate", "-endDate", "endDate&sort=endDate"] {
                    #expect(try await client.send(.get, samples + "&sort=\(sort)").status == .ok, "\(sort)")
                }
                #expect(try await client.send(.get, samples).status == .ok)
            }
        }
    }

    @Test(
        "statistics: options, interval and separateBySource given empty, or any parameter given twice differently, is 400 invalidArgument"
    )
    func statisticsParameters() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let base = "/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-02"
                let cases = [
                    (base + "&options=", "'options' is empty; give sum, average, min, max, mostRecent or duration"),
                    (base + "&interval=", "'interval' is empty; give a length such as 15m"),
                    (base + "&separateBySource=", "'separateBySource' is empty; give true or false"),
                    (
                        base + "&options=sum&options=duration",
                        "'options' is given more than once, with different values"
                    ),
                    (base + "&interval=1d&interval=1h", "'interval' is given more than once"),
                    (
                        base + "&separateBySource=true&separateBySource=false",
                        "'separateBySource' is given more than once"
                    ),
                    (base + "&type=heartRate", "'type' is given more than once"),
                ]
                for (path, words) in cases {
                    let response = try await client.send(.get, path)
                    #expect(response.status == .badRequest, "\(path): \(response.text)")
                    #expect(response.errorCode == "invalidArgument", "\(path): \(response.text)")
                    #expect(try message(response).hasPrefix(words), "\(path): \(response.text)")
                }
                for path in [base, base + "&options=sum&options=sum", base + "&sources=a&sources=b"] {
                    let response = try await client.send(.get, path)
                    #expect(response.status == .ok, "\(path): \(response.text)")
                }
            }
        }
    }

    @Test(
        "ST-1 over HTTP names the options and types as the query does (min, sum, stepCount), never Swift's discreteMin or cumulativeSum"
    )
    func optionsOfTheWrongKind() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let range = "&from=2024-06-01&to=2024-06-02"
                let cases = [
                    (
                        "type=stepCount&options=min",
                        "options: min is for discrete types such as heartRate; stepCount takes sum, mostRecent or duration (ST-1)"
                    ),
                    (
                        "type=stepCount&options=sum,average,max",
                        "options: average and max are for discrete types such as heartRate; "
                            + "stepCount takes sum, mostRecent or duration (ST-1)"
                    ),
                    (
                        "type=heartRate&options=sum",
                        "options: sum is for cumulative types such as stepCount; "
                            + "heartRate takes average, min, max, mostRecent or duration (ST-1)"
                    ),
                    (
                        "type=heartRate",
                        "options: sum (the default) is for cumulative types such as stepCount; "
                            + "heartRate takes average, min, max, mostRecent or duration (ST-1)"
                    ),
                ]
                for (query, words) in cases {
                    let response = try await client.send(.get, "/v1/statistics?" + query + range)
                    #expect(response.status == .badRequest, "\(query): \(response.text)")
                    #expect(response.errorCode == "invalidArgument", "\(query): \(response.text)")
                    #expect(try message(response) == words, "\(query): \(response.text)")
                }
                let fine = try await client.send(.get, "/v1/statistics?type=heartRate&options=min,mostRecent" + range)
                #expect(fine.status == .ok, "\(fine.text)")
            }
        }
    }
}
