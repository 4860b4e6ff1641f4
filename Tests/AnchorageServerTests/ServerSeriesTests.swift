import Anchorage
import AnchorageLog
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: routes, ECG voltages and heartbeats")
struct ServerSeriesTests {
    static let mapper = "mapper-token-0123456789"
    static let cardio = "cardio-token-0123456789"

    static var policy: AccessPolicy {
        var policy = Tokens.policy
        policy.tokens.append(
            .init(
                secret: mapper,
                principal: HKSource(name: "Mapper", bundleIdentifier: "com.example.mapper"),
                read: [HKObjectType.workoutType(), HKSeriesType.workoutRoute()],
                share: []
            )
        )
        policy.tokens.append(
            .init(
                secret: cardio,
                principal: HKSource(name: "Cardio", bundleIdentifier: "com.example.cardio"),
                read: [HKObjectType.electrocardiogramType(), HKSeriesType.heartbeat()],
                share: []
            )
        )
        return policy
    }

    @Test(
        "SERIES-1, ECG-1, SERIES-2: GeoJSON and GPX routes, CSV voltages and JSON beats for readers; 404 for others and for unknown objects; bad requests 400"
    )
    func seriesDocuments() async throws {
        try await withNode(policy: Self.policy) { node, directory in
            var configuration = HKHealthStore.Configuration()
            configuration.log.durability = .none
            let owner = HKHealthStore(directory: directory, configuration: configuration)
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let run = HKWorkout(activityType: .running, start: start, end: start.addingTimeInterval(3_600))
            try await owner.save(run)
            let builder = HKWorkoutRouteBuilder(healthStore: owner, device: nil)
            let locations = (0..<3_600).map { second in
                CLLocation(
                    coordinate: CLLocationCoordinate2D(latitude: 61.2 + Double(second) * 1e-5, longitude: -149.9),
                    altitude: 30.5,
                    horizontalAccuracy: 4,
                    verticalAccuracy: 3,
                    course: 0,
                    speed: 2.75,
                    timestamp: start.addingTimeInterval(Double(second))
                )
            }
            try await builder.insertRouteData(locations)
            let route = try await builder.finishRoute(with: run, metadata: nil)
            let ecg = try HKElectrocardiogram.stored(
                start: start,
                end: start.addingTimeInterval(30),
                classification: .sinusRhythm,
                symptomsStatus: .none,
                averageHeartRate: nil,
                samplingFrequency: HKQuantity(unit: .hertz(), doubleValue: 512),
                voltages: [.appleWatchSimilarToLeadI: (0..<15_360).map { Double($0 % 100) * 1e-6 }],
                uuid: UUID(),
                sourceRevision: HKSourceRevision(
                    source: HKSource(name: "ECG", bundleIdentifier: "com.example.ecg"),
                    version: nil
                )
            )
            try await owner.save(ecg)
            let beats = HKHeartbeatSeriesBuilder(healthStore: owner, device: nil, start: start)
            for index in 0..<10 { try await beats.addHeartbeat(at: Double(index) * 0.9, precededByGap: index == 5) }
            let series = try await beats.finishSeries()

            try await node.application().test(.router) { client in
                let geo = "/v1/workouts/\(run.uuid.uuidString)/routes"
                for token in [Tokens.owner, Self.mapper] {
                    let response = try await client.send(.get, geo, token: token)
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/geo+json")
                    let features = try #require(try response.object["features"] as? [[String: Any]])
                    #expect(features.count == 1)
                    #expect(features.first?["id"] as? String == route.uuid.uuidString)
                    let geometry = try #require(features.first?["geometry"] as? [String: Any])
                    let coordinates = try #require(geometry["coordinates"] as? [[Double]])
                    #expect(coordinates.count == 3_600)
                    #expect(coordinates.first == [-149.9, 61.2, 30.5])
                    #expect(coordinates.last == [-149.9, 61.2 + 3_599e-5, 30.5])
                }
                let gpx = try await client.send(.get, geo + "?format=gpx", token: Tokens.owner)
                #expect(gpx.status == .ok)
                #expect(gpx.headers[.contentType] == "application/gpx+xml")
                #expect(gpx.text.components(separatedBy: "<trkpt ").count - 1 == 3_600)
                #expect(gpx.text.contains(#"<trkpt lat="61.2" lon="-149.9"><ele>30.5</ele>"#))

                let csv = try await client.send(
                    .get,
                    "/v1/electrocardiograms/\(ecg.uuid.uuidString)/voltages",
                    token: Self.cardio
                )
                #expect(csv.status == .ok)
                let lines = csv.text.split(separator: "\n")
                #expect(lines.count == 15_361)
                #expect(lines.first == "seconds,appleWatchSimilarToLeadI µV")
                #expect(lines[2] == "0.001953125,1.0")

                let heartbeats = try await client.send(
                    .get,
                    "/v1/heartbeat-series/\(series.uuid.uuidString)/heartbeats",
                    token: Self.cardio
                )
                #expect(heartbeats.status == .ok)
                let list = try #require(try heartbeats.object["heartbeats"] as? [[String: Any]])
                #expect(list.count == 10)
                #expect(list.compactMap { $0["precededByGap"] as? Bool } == (0..<10).map { $0 == 5 })

                // Not readable, not there, or not asked well.
                for (path, token) in [
                    (geo, Tokens.dashboard), (geo, Self.cardio),
                    ("/v1/electrocardiograms/\(ecg.uuid.uuidString)/voltages", Self.mapper),
                    ("/v1/heartbeat-series/\(series.uuid.uuidString)/heartbeats", Tokens.dashboard),
                    ("/v1/workouts/\(UUID().uuidString)/routes", Tokens.owner),
                    ("/v1/workouts/\(route.uuid.uuidString)/routes", Tokens.owner),
                    ("/v1/electrocardiograms/\(series.uuid.uuidString)/voltages", Tokens.owner),
                ] {
                    let response = try await client.send(.get, path, token: token)
                    #expect(response.status == .notFound, "\(path)")
                    #expect(response.errorCode == "notFound", "\(path)")
                }
                for bad in [geo + "?format=kml", "/v1/workouts/not-a-uuid/routes"] {
                    #expect(try await client.send(.get, bad, token: Tokens.owner).status == .badRequest, "\(bad)")
                }
                #expect(try await client.send(.get, geo).status == .unauthorized)

                // Listings carry a series' count, never its points.
                let listed = try await client.send(.get, "/v1/samples?type=workoutRoute", token: Tokens.owner)
                let samples = try #require(try listed.object["samples"] as? [[String: Any]])
                #expect(samples.first?["count"] as? Int == 3_600)
                #expect(samples.first?["locations"] == nil)
                #expect(listed.text.utf8.count < 2_000)
                let changes = try await client.send(.get, "/v1/changes?types=electrocardiogram", token: Tokens.owner)
                #expect(changes.status == .ok)
                #expect(
                    changes.text.contains(ecg.uuid.uuidString.lowercased())
                        || changes.text.contains(ecg.uuid.uuidString)
                )
                #expect(changes.text.utf8.count < 4_000, "a feed page holds the recording's fields, not its voltages")
            }
            await owner.close()
            try await expectAuditPasses(directory)
        }
    }
}

@Suite("HTTP API: saving series in their JSON forms")
struct ServerSeriesSaveTests {
    @Test(
        "SERIES-1, ECG-1, AUD-1: POST /v1/samples saves a route, a heartbeat series, an ECG and an audiogram given with their points; broken points are 400 with the rule, nothing stored"
    )
    func saveForms() async throws {
        try await withNode(policy: Tokens.policy) { node, directory in
            let route = """
                {"kind":"workoutRoute","uuid":"\(UUID().uuidString)","type":"HKWorkoutRouteTypeIdentifier",
                 "startDate":"2026-03-10T00:00:00Z","endDate":"2026-03-10T00:00:02Z",
                 "locations":[{"timestamp":"2026-03-10T00:00:00Z","latitude":61.2,"longitude":-149.9},
                              {"timestamp":"2026-03-10T00:00:02Z","latitude":61.21,"longitude":-149.9,"altitude":12.5,"speed":3.1}]}
                """
            let beats = """
                {"kind":"heartbeatSeries","uuid":"\(UUID().uuidString)","type":"HKDataTypeIdentifierHeartbeatSeries",
                 "startDate":"2026-03-10T00:00:00Z","endDate":"2026-03-10T00:00:01.5Z",
                 "heartbeats":[{"timeSinceSeriesStart":0.7,"precededByGap":false},{"timeSinceSeriesStart":1.5,"precededByGap":true}]}
                """
            let ecg = """
                {"kind":"electrocardiogram","uuid":"\(UUID().uuidString)","type":"HKDataTypeIdentifierElectrocardiogram",
                 "startDate":"2026-03-10T00:00:00Z","endDate":"2026-03-10T00:00:30Z","classification":1,"symptomsStatus":1,
                 "samplingFrequency":{"value":512,"unit":"Hz"},"voltages":[{"lead":1,"volts":[0.0001,-0.0002,0.00015]}]}
                """
            let audiogram = """
                {"kind":"audiogram","uuid":"\(UUID().uuidString)","type":"HKDataTypeIdentifierAudiogram",
                 "startDate":"2026-03-10T00:00:00Z","endDate":"2026-03-10T00:10:00Z",
                 "sensitivityPoints":[{"frequency":1000,"tests":[{"sensitivity":20,"type":0,"masked":false,"side":0}]}]}
                """
            try await node.application().test(.router) { client in
                let saved = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json: "[\(route),\(beats),\(ecg),\(audiogram)]"
                )
                #expect(saved.status == .created, "\(saved.text)")
                #expect(try saved.object["saved"] as? Int == 4)
                for (json, rule) in [
                    (route.replacingOccurrences(of: "\"latitude\":61.21", with: "\"latitude\":91.21"), "SERIES-1"),
                    (
                        route.replacingOccurrences(of: "00:00:02Z\",\"latitude\"", with: "00:00:09Z\",\"latitude\""),
                        "SERIES-1"
                    ),
                    (
                        beats.replacingOccurrences(of: "1.5,\"precededByGap\"", with: "0.5,\"precededByGap\""),
                        "SERIES-2"
                    ),
                    (
                        ecg.replacingOccurrences(
                            of: "\"samplingFrequency\":{\"value\":512,\"unit\":\"Hz\"},",
                            with: ""
                        ), "ECG-1"
                    ),
                    (audiogram.replacingOccurrences(of: "\"sensitivity\":20", with: "\"sensitivity\":400"), "AUD-1"),
                ] {
                    let fresh = json.replacingOccurrences(
                        of: #""uuid":"[0-9A-F-]+""#,
                        with: "\"uuid\":\"\(UUID().uuidString)\"",
                        options: .regularExpression
                    )
                    let refused = try await client.send(.post, "/v1/samples", token: Tokens.owner, json: "[\(fresh)]")
                    #expect(refused.status == .badRequest, "\(rule): \(refused.text)")
                    #expect(refused.text.contains(rule), "\(refused.text)")
                }
                for type in ["workoutRoute", "heartbeatSeries", "electrocardiogram", "audiogram"] {
                    let listed = try await client.send(.get, "/v1/samples?type=\(type)", token: Tokens.owner)
                    #expect((try listed.object["samples"] as? [Any])?.count == 1, "\(type)")
                }
            }
            try await expectAuditPasses(directory)
        }
    }
}
