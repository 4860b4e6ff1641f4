import Anchorage
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// What a person reads in an HTTP error: the rule broken, the media type
/// expected, and no repeated or misleading words.
@Suite("HTTP API: error messages")
struct ServerMessageTests {
    @Test("messages end with the broken rule's id, as the CLI's do (OBJ-7, OBJ-32, ST-1)")
    func ruleIDs() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let backwards = stepJSON(1, start: "2024-06-02T00:00:00Z", end: "2024-06-01T00:00:00Z")
                let dates = try await client.send(.post, "/v1/samples", json: "[\(backwards)]")
                #expect(try message(dates).hasSuffix("(OBJ-7)"))
                let uuid = UUID()
                _ = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1, uuid: uuid))]")
                let twice = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1, uuid: uuid))]")
                #expect(try message(twice).hasSuffix("(OBJ-32)") && message(twice).contains("already exists"))
                let sum = try await client.send(
                    .get,
                    "/v1/statistics?type=heartRate&options=sum&from=2024-06-01&to=2024-06-02"
                )
                #expect(sum.errorCode == "invalidArgument")
                #expect(try message(sum).hasSuffix("(ST-1)"), "\(sum.text)")

                // A deleted uuid is never used again, and the message says it was deleted.
                _ = try await client.send(.delete, "/v1/samples/\(uuid.uuidString)")
                let again = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1, uuid: uuid))]")
                #expect(again.errorCode == "invalidArgument")
                #expect(try message(again).contains("was deleted") && !message(again).contains("already exists"))
            }
        }
    }

    @Test(
        "UNIT-1: a unit string that is not one is invalidArgument, said once; a unit of the wrong kind is incompatibleUnit"
    )
    func unparsableUnits() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let saved = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1, unit: "zork"))]")
                #expect(saved.errorCode == "invalidArgument")
                #expect(try message(saved).hasSuffix("(UNIT-1)"))
                #expect(try message(saved).components(separatedBy: "zork").count == 2, "\(saved.text)")
                let asked = try await client.send(
                    .get,
                    "/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-02&unit=zork"
                )
                #expect(asked.errorCode == "invalidArgument")
                #expect(try message(asked).hasSuffix("(UNIT-1)"), "\(asked.text)")
                let wrongKind = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1, unit: "kg"))]")
                #expect(wrongKind.errorCode == "incompatibleUnit")
            }
        }
    }

    @Test("a body sent as a form is 415 unsupportedMediaType naming what to send; nothing is stored")
    func mediaType() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let response = try await client.execute(
                    uri: "/v1/samples",
                    method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "[\(stepJSON(1))]")
                )
                #expect(response.status == .unsupportedMediaType)
                #expect(response.errorCode == "unsupportedMediaType")
                #expect(try message(response).contains("Content-Type: application/json"))
                let listed = try await client.send(.get, "/v1/samples?type=stepCount")
                #expect(try #require(try listed.object["samples"] as? [Any]).isEmpty)
            }
        }
    }

    private func message(_ response: TestResponse) throws -> String {
        try #require(try response.object["message"] as? String)
    }
}
