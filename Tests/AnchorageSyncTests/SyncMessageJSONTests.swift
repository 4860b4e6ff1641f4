import AnchorageLog
import AnchorageSync
import Foundation
import Testing

/// The JSON of the protocol's messages (docs/sync-protocol.md): version
/// vectors are objects keyed by store id text.
@Suite("Sync messages as JSON")
struct SyncMessageJSONTests {
    @Test("A version vector is an object of store ids to counters, and reads back the same")
    func versionVectorShape() throws {
        let origins = (0..<3).map { _ in StoreID() }
        let vector = Dictionary(uniqueKeysWithValues: origins.enumerated().map { ($1, UInt64($0 + 1) * 10) })
        let identity = PeerIdentity(storeID: StoreID(), incarnation: 2, head: 30, versionVector: vector, checkpoint: 7)
        let request = PullRequest(incarnation: 2, since: 7, maxEntries: 100, maxBytes: 1 << 20, versionVector: vector)
        for data in [try JSONEncoder().encode(identity), try JSONEncoder().encode(request)] {
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let sent = try #require(object["versionVector"] as? [String: Any])
            #expect(Set(sent.keys) == Set(origins.map(\.description)))
        }
        #expect(try JSONDecoder().decode(PeerIdentity.self, from: JSONEncoder().encode(identity)) == identity)
        #expect(try JSONDecoder().decode(PullRequest.self, from: JSONEncoder().encode(request)) == request)
    }

    @Test("A version vector naming something that is not a store id is refused")
    func foreignOrigin() {
        let json =
            #"{"protocolVersion":1,"storeID":"\#(StoreID())","incarnation":1,"head":0,"versionVector":{"lol":3}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PeerIdentity.self, from: Data(json.utf8)) }
        let pull = #"{"incarnation":1,"since":0,"maxEntries":1,"maxBytes":1,"versionVector":{"../etc":1}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PullRequest.self, from: Data(pull.utf8)) }
    }
}
