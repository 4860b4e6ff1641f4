import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

/// A number that is JSON but does not fit its field is told apart from
/// broken JSON, at its path, whatever container holds it.
@Suite("JSON numbers out of their field's range")
struct JSONNumbersTests {
    private struct Reading: Decodable, Equatable {
        var count: Int
        var small: UInt8?
        var values: [Double]
        var grid: [[Int32]]
        var named: [String: UInt]
        var inner: Inner?
    }

    private struct Inner: Decodable, Equatable {
        var level: Float
        var when: Date?
    }

    private func outcome(_ json: String) -> String {
        do {
            return "\(try JSONNumbers.decode(Reading.self, from: Data(json.utf8)))"
        } catch let error as JSONNumberOutOfRange {
            return error.path + ": " + error.accepted
        } catch let error as DecodingError {
            return DecodingErrorWords.describe(error)
        } catch {
            return "\(error)"
        }
    }

    private static let body = #"{"count":1,"values":[1.5],"grid":[[1]],"named":{"a":1}}"#

    @Test("each number's path, in objects, arrays, optionals and dictionaries; what each kind of number takes")
    func paths() {
        let whole = "a whole number from -9223372036854775808 to 9223372036854775807"
        let cases = [
            (#"{"count":1e19,"values":[],"grid":[],"named":{}}"#, "count: " + whole),
            (#"{"count":1.5,"values":[],"grid":[],"named":{}}"#, "count: " + whole),
            (#"{"count":1,"small":256,"values":[],"grid":[],"named":{}}"#, "small: a whole number from 0 to 255"),
            (
                #"{"count":1,"values":[1,2,1e309],"grid":[],"named":{}}"#,
                "values[2]: a number of at most 1.7976931348623157e+308 in magnitude, and 0 or at least 5e-324 in magnitude"
            ),
            (
                #"{"count":1,"values":[],"grid":[[1],[2,2147483648]],"named":{}}"#,
                "grid[1][1]: a whole number from -2147483648 to 2147483647"
            ),
            (
                #"{"count":1,"values":[],"grid":[],"named":{"a":1,"b":-1}}"#,
                "named.b: a whole number from 0 to 18446744073709551615"
            ),
            (
                #"{"count":1,"values":[],"grid":[],"named":{},"inner":{"level":1e39}}"#,
                "inner.level: a number of at most 3.4028235e+38 in magnitude, and 0 or at least 1e-45 in magnitude"
            ),
        ]
        for (json, expected) in cases {
            #expect(outcome(json) == expected, "\(json)")
        }
    }

    @Test(
        "what fits decodes as JSONDecoder decodes it; other mistakes keep JSONDecoder's error; broken numbers are broken JSON"
    )
    func otherwiseJSONDecoder() throws {
        let decoded = try JSONNumbers.decode(Reading.self, from: Data(Self.body.utf8))
        #expect(decoded == (try JSONDecoder().decode(Reading.self, from: Data(Self.body.utf8))))
        #expect(outcome(#"{"values":[],"grid":[],"named":{}}"#) == "missing field 'count'")
        #expect(outcome(#"{"count":"1","values":[],"grid":[],"named":{}}"#) == "count: expected a number")
        // A number out of range after a mistake of another kind: the first one met.
        #expect(outcome(#"{"count":"1","values":[1e400],"grid":[],"named":{}}"#) == "count: expected a number")
        #expect(
            outcome(#"{"count":1,"values":[1e400],"grid":[]}"#) == "values[0]: " + JSONNumbers.accepted(Double.self)
        )
        for broken in [
            #"{"count":1e,"values":[],"grid":[],"named":{}}"#, #"{"count":1e400,"values":[],"grid":[],"named":{}"#,
            #"{"count":1e400,"values":[1.],"grid":[],"named":{}}"#,
            #"{"count":1e400,"values":[],"grid":[],"named":{}} x"#,
            #"{"count":1e400,"values":[],"grid":[],"named":{"a":01}}"#,
        ] {
            #expect(outcome(broken) == "the body is not valid JSON", "\(broken)")
        }
    }

    @Test("JSON's grammar: the values RFC 8259 allows, and what it does not")
    func grammar() {
        let valid = [
            "0", "-0", "1.5e+3", "1E-3", "\"\"", #""a\"\\\/\b\f\n\r\t\u00e9""#, "true", "false", "null", " [ ] ", "{}",
            #"{"a":[1,{"b":null}],"c":"d"}"#, "[[[[]]]]", "\n\t\r [1 , 2]\n", "1e400", "99999999999999999999",
        ]
        let invalid = [
            "", " ", "01", "-", "1.", ".1", "1e", "1e+", "+1", "0x1", "NaN", "[1,]", "[,1]", "{\"a\"}", "{\"a\":}",
            "{\"a\":1,}", "{1:2}", "[1 2]", "[", "]", "{", "\"abc", "\"\\x\"", "\"\\u12G4\"", "\"\u{01}\"", "tru",
            "nul", "[true false]", "1 2", "[] []", "{\"a\":1]", "[1}",
        ]
        for text in valid {
            #expect(Array(text.utf8).withUnsafeBytes(JSONGrammar.matches), "\(text)")
        }
        for text in invalid {
            #expect(!Array(text.utf8).withUnsafeBytes(JSONGrammar.matches), "\(text)")
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Array(deep.utf8).withUnsafeBytes(JSONGrammar.matches))
    }

    /// Any JSON value JSONDecoder reads (numbers that fit a double).
    private enum AnyJSON: Decodable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([AnyJSON])
        case object([String: AnyJSON])

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else if let string = try? value.decode(String.self) {
                self = .string(string)
            } else if let array = try? value.decode([AnyJSON].self) {
                self = .array(array)
            } else {
                self = .object(try value.decode([String: AnyJSON].self))
            }
        }
    }

    @Test("the grammar never refuses what JSONDecoder reads, on generated and damaged batches")
    func grammarAgreesWithJSONDecoder() {
        var random = SeededGenerator(seed: 3_535)
        for text in SampleBatchFastPathTests.batches(seed: 39, count: 100) {
            #expect(Array(text.utf8).withUnsafeBytes(JSONGrammar.matches))
            for _ in 0..<10 {
                let bytes = SampleBatchFastPathTests.damaged(text, using: &random)
                if (try? JSONDecoder().decode(AnyJSON.self, from: Data(bytes))) != nil {
                    #expect(bytes.withUnsafeBytes(JSONGrammar.matches), "\(Data(bytes).base64EncodedString())")
                }
            }
        }
    }
}
