import Anchorage
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: a delete never tells an app what it cannot read (AUTH-4)")
struct ServerHiddenDeleteTests {
    /// What a client can tell of an answer: status, code, content type, and
    /// the message with the uuid it names blanked out.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var code: String?
        var contentType: String?
        var message: String

        init(_ response: TestResponse, uuid: UUID) throws {
            status = response.status.code
            code = response.errorCode
            contentType = response.headers[.contentType]
            let text = try #require(try response.object["message"] as? String)
            message = text.replacingOccurrences(of: uuid.uuidString, with: "<uuid>")
        }

        var description: String { "\(status) \(code ?? "-") \(contentType ?? "-"): \(message)" }
    }

    static func massJSON(_ uuid: UUID) -> String {
        """
        {"kind":"quantitySample","uuid":"\(uuid.uuidString)","type":"HKQuantityTypeIdentifierBodyMass",\
        "startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:00:00Z","quantity":{"unit":"kg","value":70}}
        """
    }

    @Test("AUTH-4, AUTH-5: deleting a sample the app cannot read answers exactly as for an id that does not exist")
    func hiddenDeletes() async throws {
        try await withNode(policy: Tokens.policy) { node, directory in
            try await node.application().test(.router) { client in
                let mass = UUID()
                let steps = UUID()
                let saved = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json: "[\(Self.massJSON(mass)),\(stepJSON(9, uuid: steps))]"
                )
                #expect(saved.status == .created)

                func answer(deleting id: UUID, as token: String) async throws -> Answer {
                    try Answer(try await client.send(.delete, "/v1/samples/\(id.uuidString)", token: token), uuid: id)
                }
                // The dashboard reads no body mass; the scale reads no steps, and
                // of body mass only its own (it shares it, AUTH-5).
                let hidden: [(UUID, String, String)] = [
                    (mass, Tokens.dashboard, "the dashboard, the owner's body mass"),
                    (steps, Tokens.scale, "the scale, the owner's steps"),
                    (mass, Tokens.scale, "the scale, the owner's body mass"),
                ]
                for (id, token, who) in hidden {
                    let existing = try await answer(deleting: id, as: token)
                    let missing = try await answer(deleting: UUID(), as: token)
                    #expect(existing == missing, "\(who): \(existing) vs \(missing)")
                    #expect(existing.status == 404 && existing.code == "notFound", "\(who)")
                    #expect(!existing.message.contains("70"), "no health value in the message")
                }

                // A sample the app can read but did not save is still refused (OBJ-34).
                let visible = try await answer(deleting: steps, as: Tokens.dashboard)
                #expect(visible.status == 403 && visible.code == "authorizationDenied", "\(visible)")

                // Nothing was deleted.
                for type in ["bodyMass", "stepCount"] {
                    let listed = try await client.send(.get, "/v1/samples?type=\(type)", token: Tokens.owner)
                    #expect(try #require(try listed.object["samples"] as? [Any]).count == 1, "\(type)")
                }
            }
            try await expectAuditPasses(directory)
        }
    }
}
