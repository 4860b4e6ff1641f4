import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

@Suite("Export lines: base64 without Data")
struct Base64AppenderTests {
    @Test("every length from 0 to 300 bytes: the same text as Foundation's base64EncodedString")
    func sameAsFoundation() {
        var random = SeededGenerator(seed: 0xB64)
        for count in 0...300 {
            let source = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            var bytes = Array("prefix:".utf8)
            Base64Appender.append(source, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "prefix:" + Data(source).base64EncodedString())
        }
    }
}
