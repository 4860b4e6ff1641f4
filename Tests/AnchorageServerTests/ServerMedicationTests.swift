import Anchorage
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: medication dose events")
struct ServerMedicationTests {
    static func doseJSON(_ uuid: UUID) -> String {
        """
        [{"kind":"medicationDoseEvent","uuid":"\(uuid.uuidString)",\
        "type":"HKMedicationDoseEventTypeIdentifierMedicationDoseEvent",\
        "startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:00:00Z",\
        "medicationConcept":{"domain":"medication","code":"197361"},"scheduleType":2,\
        "scheduledDate":"2024-06-01T08:00:00Z","scheduledDoseQuantity":2,"doseQuantity":2,"logStatus":4,"unit":"count"}]
        """
    }

    @Test(
        "MED-1, AUTH-12: the owner posts a dose event and lists it as medicationDoseEvent; an app may not post one; a broken one is 400 without its values"
    )
    func postAndList() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            try await node.application().test(.router) { client in
                let uuid = UUID()
                let saved = try await client.send(.post, "/v1/samples", token: Tokens.owner, json: Self.doseJSON(uuid))
                #expect(saved.status == .created)
                let listed = try await client.send(.get, "/v1/samples?type=medicationDoseEvent", token: Tokens.owner)
                let samples = try #require(try listed.object["samples"] as? [[String: Any]])
                #expect(samples.count == 1)
                #expect(samples.first?["kind"] as? String == "medicationDoseEvent")
                #expect(samples.first?["logStatus"] as? Int == 4)
                #expect(samples.first?["uuid"] as? String == uuid.uuidString)
                let denied = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.dashboard,
                    json: Self.doseJSON(UUID())
                )
                #expect(denied.status == .forbidden, "\(denied.status) \(denied.text)")
                let broken = Self.doseJSON(UUID()).replacingOccurrences(
                    of: #""doseQuantity":2"#,
                    with: #""doseQuantity":-7.125"#
                )
                let refused = try await client.send(.post, "/v1/samples", token: Tokens.owner, json: broken)
                #expect(refused.status == .badRequest)
                #expect(refused.text.contains("MED-1") && !refused.text.contains("7.125"), "\(refused.text)")
            }
        }
    }
}
