import AnchorageModel
import Foundation
import Testing

/// What a sender of bad JSON is told: where, and what was expected, in
/// words; never its own text repeated at length.
@Suite("Decoding errors in words")
struct DecodingErrorWordsTests {
    /// Keys of a JSON object that only some strings are.
    private enum Day: String, Decodable, CodingKeyRepresentable {
        case monday, tuesday
    }

    private struct Keyed: Decodable {
        var counts: [Day: Int]
    }

    private func message(_ json: String) throws -> String {
        do {
            _ = try JSONDecoder().decode(Keyed.self, from: Data(json.utf8))
        } catch let error as DecodingError {
            return DecodingErrorWords.describe(error)
        }
        Issue.record("\(json.prefix(60)) decoded")
        return ""
    }

    @Test("A key an object does not take is named, not described in Swift's words")
    func unknownKey() throws {
        let words = try message(#"{"counts":{"lol":3}}"#)
        #expect(words == "counts.lol: not a key this object takes")
    }

    @Test("A long key from the sender is cut to 40 characters in the message")
    func longKeyCut() throws {
        let key = String(repeating: "k", count: 100_000)
        let words = try message(#"{"counts":{""# + key + #"":3}}"#)
        #expect(words == "counts." + String(repeating: "k", count: 40) + "…: not a key this object takes")
    }
}
