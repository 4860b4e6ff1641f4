import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

/// The uuid text reader and writer that replace Foundation's sscanf and
/// snprintf on the save and feed paths: the same answers as Foundation.
@Suite("UUID text without sscanf")
struct UUIDTextTests {
    @Test("random uuids: the text is uuidString's, and reads back in either case")
    func roundTrip() {
        var random = SeededGenerator(seed: 0x0D1D)
        for _ in 0..<5_000 {
            let id = UUID.random(using: &random)
            #expect(id.text == id.uuidString)
            var bytes: [UInt8] = Array("x".utf8)
            id.appendText(to: &bytes)
            #expect(bytes == Array(("x" + id.uuidString).utf8))
            var lower: [UInt8] = []
            id.appendText(to: &lower, lowercase: true)
            #expect(lower == Array(id.uuidString.lowercased().utf8))
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: id.uuidString.lowercased()) == id)
        }
    }

    @Test("mutated and odd spellings: accepted or refused exactly as Foundation's UUID(uuidString:) does")
    func agreesWithFoundation() {
        var random = SeededGenerator(seed: 0x0D1E)
        let alphabet = Array("0123456789abcdefABCDEFgG-x +{}".utf8)
        var cases = [
            "", "-", "2D7C0C4B8F574E439A555E0A8E1F4B13", "{2D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B13}",
            " 2D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B13", "2D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B13 ",
            "2D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B1", "2D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B133",
            "2D7C0C4B-8F574-E43-9A55-5E0A8E1F4B13", "+D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B13",
            "0x7C0C4B-8F57-4E43-9A55-5E0A8E1F4B13", "2D7C0C4B-8F57-4E43-9A55-5E0A8E1F4Bé",
        ]
        for _ in 0..<5_000 {
            var bytes = Array(UUID.random(using: &random).uuidString.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                bytes[Int.random(in: bytes.indices, using: &random)] = alphabet.randomElement(using: &random)!
            }
            cases.append(String(decoding: bytes, as: UTF8.self))
        }
        for text in cases {
            #expect(UUID(text: text) == UUID(uuidString: text), "\(text)")
        }
    }
}
