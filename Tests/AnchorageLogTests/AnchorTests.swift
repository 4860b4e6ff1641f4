import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

@Suite("Anchors")
struct AnchorTests {
    @Test("the string form round-trips and is URL-safe")
    func stringRoundTrip() throws {
        var generator = SeededGenerator(seed: 0xA4)
        for seq: UInt64 in [0, 1, 255, 1 << 40, .max] {
            let incarnation = UInt64.random(in: 1...UInt64.max, using: &generator)
            let anchor = Anchor(storeID: StoreID(), incarnation: incarnation, seq: seq)
            let string = anchor.stringValue
            #expect(string.count == 50)
            #expect(string.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            #expect(try Anchor(parsing: string) == anchor)
        }
    }

    @Test("the Codable form is the string form")
    func codable() throws {
        let anchor = Anchor(storeID: StoreID(), incarnation: 7, seq: 42)
        let json = try JSONEncoder().encode([anchor])
        #expect(String(decoding: json, as: UTF8.self) == "[\"\(anchor.stringValue)\"]")
        #expect(try JSONDecoder().decode([Anchor].self, from: json) == [anchor])
        #expect(throws: (any Error).self) { try JSONDecoder().decode([Anchor].self, from: Data("[\"nope\"]".utf8)) }
    }

    @Test(
        "malformed strings give a clear error",
        arguments: [
            "", "abc", String(repeating: "A", count: 50), String(repeating: "é", count: 50),
            String(repeating: "A", count: 49) + "!", String(repeating: "x", count: 200),
        ]
    )
    func malformed(string: String) {
        #expect {
            try Anchor(parsing: string)
        } throws: { error in
            let error = error as? LogError
            return error?.code == .malformedAnchor && error!.message.contains("not an anchor")
        }
    }

    @Test("a mistyped character is caught by the checksum")
    func mistyped() throws {
        let string = Anchor(storeID: StoreID(), incarnation: 1, seq: 99).stringValue
        var characters = Array(string)
        for index in characters.indices {
            let original = characters[index]
            characters[index] = original == "A" ? "B" : "A"
            #expect(throws: LogError.self) { try Anchor(parsing: String(characters)) }
            characters[index] = original
        }
    }

    @Test("an anchor of another store, of an earlier incarnation, or past the head is rejected")
    func rejection() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            try await log.append([.save(id: UUID(), kind: 1, payload: [1])])
            let foreign = Anchor(storeID: StoreID(), incarnation: log.incarnation, seq: 1)
            let stale = Anchor(storeID: log.storeID, incarnation: log.incarnation &+ 1, seq: 1)
            let ahead = Anchor(storeID: log.storeID, incarnation: log.incarnation, seq: 2)
            for (anchor, code) in [
                (foreign, LogError.Code.foreignAnchor), (stale, .staleAnchor), (ahead, .anchorAhead),
            ] {
                #expect {
                    try log.entries(after: anchor, limit: 10)
                } throws: { error in
                    let error = error as? LogError
                    return error?.code == code && error!.message.contains("start over")
                }
            }
            #expect(try log.entries(after: log.head, limit: 10).entries.isEmpty)
        }
    }
}

extension AnchorTests {
    @Test("base64url: the direct encoder writes what Foundation's base64 does, made URL-safe and unpadded")
    func base64URL() {
        var generator = SeededGenerator(seed: 64)
        for length in 0..<80 {
            for _ in 0..<8 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let expected = Data(bytes).base64EncodedString()
                    .replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_")
                    .replacingOccurrences(of: "=", with: "")
                #expect(Base64URL.encode(bytes) == expected, "\(length) bytes")
                #expect(Base64URL.decode(expected) == bytes, "\(length) bytes")
            }
        }
    }
}
