import Crypto
import Testing
import _CryptoExtras

@testable import AnchorageLog

/// The log's AES-256-GCM-SIV contexts (BoringSSL called directly) against
/// swift-crypto's own `AES.GCM._SIV`, which the known-answer vectors hold
/// to an implementation outside Swift.
@Suite("AES-256-GCM-SIV in place: the same bytes as swift-crypto, nothing unauthenticated handed out")
struct SIVKeyTests {
    @Test("seal and open agree with swift-crypto for 500 random keys, nonces, lengths 0–300 and associated data")
    func agreesWithSwiftCrypto() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let key = SymmetricKey(size: .bits256)
            let nonce = (0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let plain = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255) }
            let associated = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255) }
            let expected = try AES.GCM._SIV.seal(
                plain,
                using: key,
                nonce: AES.GCM._SIV.Nonce(data: nonce),
                authenticating: associated
            )
            let sivKey = SIVKey(key)
            var sealed = [UInt8](repeating: 0, count: plain.count + SIVKey.tagSize)
            let written = plain.withUnsafeBytes { plain in
                nonce.withUnsafeBytes { nonce in
                    associated.withUnsafeBytes { associated in
                        sealed.withUnsafeMutableBytes {
                            sivKey.seal(plain, nonce: nonce, associatedData: associated, into: $0)
                        }
                    }
                }
            }
            #expect(written == sealed.count)
            #expect(sealed == Array(expected.ciphertext) + Array(expected.tag))
            let opened = sealed.withUnsafeBytes { sealed in
                nonce.withUnsafeBytes { nonce in
                    associated.withUnsafeBytes { associated in
                        sivKey.withOpened(sealed, nonce: nonce, associatedData: associated) { $0.map(Array.init) }
                    }
                }
            }
            #expect(opened == plain)
        }
    }

    @Test("a flipped bit, other associated data, another nonce or key: nil, and the output left all zeros")
    func refusesWhatDoesNotAuthenticate() throws {
        let key = SIVKey(SymmetricKey(size: .bits256))
        let nonce = [UInt8](repeating: 7, count: 12)
        let plain = Array("a heart rate of 61".utf8)
        let associated = Array("entry 1".utf8)
        var sealed = [UInt8](repeating: 0, count: plain.count + 16)
        _ = plain.withUnsafeBytes { plain in
            nonce.withUnsafeBytes { nonce in
                associated.withUnsafeBytes { associated in
                    sealed.withUnsafeMutableBytes {
                        key.seal(plain, nonce: nonce, associatedData: associated, into: $0)
                    }
                }
            }
        }
        func open(_ bytes: [UInt8], nonce: [UInt8], associated: [UInt8], with key: SIVKey) -> (Int?, [UInt8]) {
            var output = [UInt8](repeating: 0xAA, count: bytes.count)
            let count = bytes.withUnsafeBytes { bytes in
                nonce.withUnsafeBytes { nonce in
                    associated.withUnsafeBytes { associated in
                        output.withUnsafeMutableBytes {
                            key.open(bytes, nonce: nonce, associatedData: associated, into: $0)
                        }
                    }
                }
            }
            return (count, output)
        }
        #expect(open(sealed, nonce: nonce, associated: associated, with: key).0 == plain.count)
        for bit in [0, 8 * 5 + 3, 8 * (sealed.count - 1)] {
            var flipped = sealed
            flipped[bit / 8] ^= 1 << (bit % 8)
            let (count, output) = open(flipped, nonce: nonce, associated: associated, with: key)
            #expect(count == nil)
            #expect(output.allSatisfy { $0 == 0 })
        }
        #expect(open(sealed, nonce: nonce, associated: Array("entry 2".utf8), with: key).0 == nil)
        #expect(open(sealed, nonce: [UInt8](repeating: 8, count: 12), associated: associated, with: key).0 == nil)
        #expect(open(sealed, nonce: nonce, associated: associated, with: SIVKey(SymmetricKey(size: .bits256))).0 == nil)
        #expect(open(Array(sealed.prefix(15)), nonce: nonce, associated: associated, with: key).0 == nil)
    }
}
