import Anchorage
import AnchorageLog
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: bad requests")
struct ServerErrorTests {
    /// Asserts that the store holds no step samples.
    private func expectNothingStored(_ client: some TestClientProtocol) async throws {
        let listed = try await client.send(.get, "/v1/samples?type=stepCount")
        #expect(try #require(try listed.object["samples"] as? [Any]).isEmpty)
    }

    @Test("malformed JSON is 400 invalidJSON with words, and nothing is stored")
    func malformedJSON() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                for body in [#"[{"kind":"#, #"{"samples": 3}"#, #"[{"kind":"quantitySample"}]"#, "hello"] {
                    let response = try await client.send(.post, "/v1/samples", json: body)
                    #expect(response.status == .badRequest)
                    #expect(response.errorCode == "invalidJSON")
                    let message = try #require(try response.object["message"] as? String)
                    #expect(!message.isEmpty)
                }
                let empty = try await client.send(.post, "/v1/samples", json: "[]")
                #expect(empty.status == .badRequest)
                try await expectNothingStored(client)
            }
        }
    }

    @Test(
        "a number that is JSON but does not fit its field is 400 invalidArgument naming the field and what it takes, never the number; a broken number is invalidJSON; nothing stored"
    )
    func numbersOutOfRange() async throws {
        let fields =
            #""uuid":"\#(UUID().uuidString)","startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:10:00Z""#
        let double = "a number of at most 1.7976931348623157e+308 in magnitude, and 0 or at least 5e-324 in magnitude"
        let steps = stepJSON(1).replacingOccurrences(of: #""value":1.0"#, with: #""value":1e400"#)
        let cases = [
            ("[\(stepJSON(5)),\(steps)]", "[1].quantity.value", double),
            (#"{"samples":[\#(steps)]}"#, "samples[0].quantity.value", double),
            (
                #"[{"kind":"categorySample",\#(fields),"type":"HKCategoryTypeIdentifierMindfulSession","value":99999999999999999999}]"#,
                "[0].value", "a whole number from -9223372036854775808 to 9223372036854775807"
            ),
            (
                #"[{"kind":"workout",\#(fields),"type":"HKWorkoutTypeIdentifier","workoutActivityType":-1}]"#,
                "[0].workoutActivityType", "a whole number from 0 to 18446744073709551615"
            ),
        ]
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                for (body, path, accepted) in cases {
                    let response = try await client.send(.post, "/v1/samples", json: body)
                    #expect(response.status == .badRequest, "\(response.text)")
                    #expect(response.errorCode == "invalidArgument", "\(response.text)")
                    let message = try #require(try response.object["message"] as? String)
                    #expect(message == "the number at \(path) is out of range: the field takes \(accepted)")
                    #expect(!message.contains("1e400") && !message.contains("99999") && !message.contains("-1"))
                }
                for number in ["1e", "1.", "01", "-"] {
                    let broken = stepJSON(1).replacingOccurrences(of: #""value":1.0"#, with: #""value":\#(number)"#)
                    let response = try await client.send(.post, "/v1/samples", json: "[\(broken)]")
                    #expect(response.status == .badRequest, "\(number): \(response.text)")
                    #expect(response.errorCode == "invalidJSON", "\(number): \(response.text)")
                }
                try await expectNothingStored(client)
            }
        }
    }

    @Test("OBJ-31: one bad sample refuses the whole request (OBJ-10 unit, OBJ-11 type), nothing stored")
    func allOrNothing() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let badUnit = try await client.send(
                    .post,
                    "/v1/samples",
                    json: "[\(stepJSON(1)),\(stepJSON(2, unit: "kg"))]"
                )
                #expect(badUnit.status == .badRequest)
                #expect(badUnit.errorCode == "incompatibleUnit")
                let badType = try await client.send(
                    .post,
                    "/v1/samples",
                    json: "[\(stepJSON(1)),\(stepJSON(2, type: "HKQuantityTypeIdentifierNope"))]"
                )
                #expect(badType.errorCode == "unknownType")
                let badDates = try await client.send(
                    .post,
                    "/v1/samples",
                    json: "[\(stepJSON(1, start: "2024-06-02T00:00:00Z", end: "2024-06-01T00:00:00Z"))]"
                )
                #expect(badDates.errorCode == "invalidArgument")
                // Messages never repeat the health values sent.
                #expect(!badUnit.text.contains("2.0") && !badType.text.contains("\"2\""))
                try await expectNothingStored(client)
            }
        }
    }

    @Test(
        "VAL-1: a negative step count, a heart rate of 400 or a negative body mass is 400 invalidArgument naming the rule, nothing stored"
    )
    func valuesOutOfRange() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                for sample in [
                    stepJSON(-1_234), stepJSON(412, unit: "count/min", type: "HKQuantityTypeIdentifierHeartRate"),
                    stepJSON(-71.5, unit: "kg", type: "HKQuantityTypeIdentifierBodyMass"),
                ] {
                    let response = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(10)),\(sample)]")
                    #expect(response.status == .badRequest)
                    #expect(response.errorCode == "invalidArgument")
                    let message = try #require(try response.object["message"] as? String)
                    #expect(message.hasSuffix("(VAL-1)"), "\(message)")
                    // Never the value sent.
                    #expect(!message.contains("1234") && !message.contains("412") && !message.contains("71.5"))
                }
                try await expectNothingStored(client)
            }
        }
    }

    @Test("unknown types, incompatible units, bad options, dates and numbers in queries are 400s that say why")
    func badQueries() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let cases: [(String, String)] = [
                    ("/v1/samples?type=nope", "unknownType"),
                    ("/v1/samples", "invalidArgument"),
                    ("/v1/changes?types=stepCount,nope", "unknownType"),
                    ("/v1/sources?type=nope", "unknownType"),
                    ("/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-02&unit=kg", "incompatibleUnit"),
                    ("/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-02&unit=furlong", "invalidArgument"),
                    ("/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-02&options=average", "invalidArgument"),
                    ("/v1/statistics?type=sleepAnalysis&from=2024-06-01&to=2024-06-02", "invalidArgument"),
                    ("/v1/statistics?type=stepCount&from=2024-06-01", "invalidArgument"),
                    ("/v1/statistics?type=stepCount&from=yesterday&to=2024-06-02", "invalidArgument"),
                    ("/v1/statistics?type=stepCount&from=2020-01-01&to=2024-01-01&interval=1m", "invalidArgument"),
                    ("/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-02&tz=Mars/Olympus", "invalidArgument"),
                    ("/v1/changes?limit=0", "invalidArgument"),
                    ("/v1/changes?limit=1000000", "invalidArgument"),
                    ("/v1/changes?wait=3600", "invalidArgument"),
                    // Given empty, a number is no number (schemathesis found `limit=` read as absent).
                    ("/v1/changes?limit=", "invalidArgument"),
                    ("/v1/samples?type=stepCount&limit=", "invalidArgument"),
                    ("/v1/access-log?limit=", "invalidArgument"),
                    ("/v1/sync/wait?after=0&timeout=soon", "invalidArgument"),
                    ("/v1/sync/wait?after=0&timeout=", "invalidArgument"),
                    ("/v1/sync/wait?after=0&epoch=-1", "invalidArgument"),
                    ("/v1/sync/wait?after=minus", "invalidArgument"),
                    ("/v1/nowhere", "notFound"),
                ]
                for (uri, code) in cases {
                    let response = try await client.send(.get, uri)
                    #expect(response.errorCode == code, "\(uri): \(response.text)")
                    #expect(response.status.kind == .clientError, "\(uri)")
                    #expect(response.headers[.contentType] == "application/json", "\(uri)")
                }
            }
        }
    }

    @Test("a body over the limit is 413 bodyTooLarge and nothing is stored")
    func oversizedBody() async throws {
        try await withNode(configuration: nodeConfiguration { $0.maximumBodyBytes = 1_024 }) { node, _ in
            try await node.application().test(.router) { client in
                let samples = (0..<20).map { _ in stepJSON(1) }.joined(separator: ",")
                let response = try await client.send(.post, "/v1/samples", json: "[\(samples)]")
                #expect(response.status == .contentTooLarge)
                #expect(response.errorCode == "bodyTooLarge")
                try await expectNothingStored(client)
            }
        }
    }

    @Test("AQ-11: an anchor of this store past its head is 410 anchorNotValid, for pages, streams and webhooks")
    func anchorsAhead() async throws {
        try await withNode { node, directory in
            try await node.application().test(.router) { client in
                _ = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1))]")
                let owner = HKHealthStore(directory: directory)
                let log = try owner.eventLog()
                let ahead = Anchor(storeID: log.storeID, incarnation: log.incarnation, seq: 10_000_000).stringValue
                await owner.close()
                let response = try await client.send(.get, "/v1/changes?types=stepCount&since=\(ahead)")
                #expect(response.status == .gone)
                #expect(response.errorCode == "anchorNotValid")
                let message = try #require(try response.object["message"] as? String)
                #expect(message.contains("ends at entry 1") && message.contains("start over"))
                let streamed = try await client.send(.get, "/v1/changes?types=stepCount&stream=ndjson&since=\(ahead)")
                #expect(streamed.status == .gone)
                let waited = try await client.send(.get, "/v1/changes?types=stepCount&wait=1&since=\(ahead)")
                #expect(waited.status == .gone)
            }
        }
    }

    @Test("AQ-11: an anchor of another store is 410 anchorNotValid telling to start over; garbage is 400")
    func staleAnchors() async throws {
        let foreign = try await withNode { other, _ in
            try await other.application().test(.router) { client in
                _ = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1))]")
                let page = try await client.send(.get, "/v1/changes?types=stepCount")
                return try #require(try page.object["newAnchor"] as? String)
            }
        }
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                // Past the anchor's position, so only its store tells it apart.
                let three = [stepJSON(2), stepJSON(3), stepJSON(4)].joined(separator: ",")
                #expect(try await client.send(.post, "/v1/samples", json: "[\(three)]").status == .created)
                let response = try await client.send(.get, "/v1/changes?types=stepCount&since=\(foreign)")
                #expect(response.status == .gone)
                #expect(response.errorCode == "anchorNotValid")
                let message = try #require(try response.object["message"] as? String)
                #expect(message.contains("another store") && message.contains("start over"), "\(message)")
                let streamed = try await client.send(.get, "/v1/changes?types=stepCount&stream=ndjson&since=\(foreign)")
                #expect(streamed.status == .gone)
                let garbage = try await client.send(.get, "/v1/changes?since=not-an-anchor")
                #expect(garbage.status == .badRequest)
                #expect(garbage.errorCode == "anchorNotValid")
            }
        }
    }
}
