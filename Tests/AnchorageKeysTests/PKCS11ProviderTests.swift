import AnchorageLog
import AnchorageTesting
import Crypto
import Dispatch
import Foundation
import Testing

@testable import AnchorageKeys

/// The PKCS#11 provider against SoftHSM2, a real token.
@Suite("Keys: a PKCS#11 token (SoftHSM2)", .serialized)
struct PKCS11ProviderTests {
    @Test("a new token gets a non-extractable wrapping key; data keys wrap and unwrap on it, across sessions")
    func roundTrip() async throws {
        let token = try SoftHSM.makeToken()
        let provider = try await PKCS11Provider(configuration: SoftHSM.configuration(token: token))
        let key = DataKey.generate()
        let wrapped = try await provider.wrap(key)
        #expect(wrapped.bytes.count == WrappedKey.wrappedSize)
        #expect(wrapped.wrappingKeyID == "pkcs11:anchorage-wrapping-key")
        let material = key.material.withUnsafeBytes { Array($0) }
        #expect(try await provider.unwrap(wrapped).material.withUnsafeBytes { Array($0) } == material)
        // Another provider (the node restarted) finds the same key on the token.
        let again = try await PKCS11Provider(configuration: SoftHSM.configuration(token: token, createsKey: false))
        #expect(try await again.unwrap(wrapped).material.withUnsafeBytes { Array($0) } == material)
        var flipped = wrapped.bytes
        flipped[30] ^= 1
        let forged = WrappedKey(
            keyID: wrapped.keyID,
            version: wrapped.version,
            wrappingKeyID: wrapped.wrappingKeyID,
            bytes: flipped
        )
        do {
            _ = try await again.unwrap(forged)
            Issue.record("a changed wrapped key unwrapped")
        } catch {
            #expect(error.code == .unwrapFailed, "\(error)")
        }
        let other = WrappedKey(
            keyID: KeyID(),
            version: wrapped.version,
            wrappingKeyID: wrapped.wrappingKeyID,
            bytes: wrapped.bytes
        )
        #expect(await KeyFileProviderTests.code { try await again.unwrap(other) } == .unwrapFailed)
    }

    @Test("a token without the key, an absent token, a wrong PIN, a missing module: typed errors naming what to fix")
    func misconfigurations() async throws {
        let token = try SoftHSM.makeToken()
        let noKey = await KeyFileProviderTests.code {
            try await PKCS11Provider(configuration: SoftHSM.configuration(token: token, createsKey: false))
        }
        #expect(noKey == .keyMissing)
        #expect(
            await KeyFileProviderTests.code {
                try await PKCS11Provider(configuration: SoftHSM.configuration(token: "no-such-token"))
            } == .providerUnavailable
        )
        var missing = SoftHSM.configuration(token: token)
        missing.module = "/nonexistent/libpkcs11.so"
        #expect(
            await KeyFileProviderTests.code { try await PKCS11Provider(configuration: missing) } == .providerUnavailable
        )
        try await withTemporaryDirectory { directory in
            let wrongPIN = directory.appendingPathComponent("pin")
            try "000000\n".write(to: wrongPIN, atomically: true, encoding: .utf8)
            var configuration = SoftHSM.configuration(token: token)
            configuration.pinFile = wrongPIN
            do {
                _ = try await PKCS11Provider(configuration: configuration)
                Issue.record("a wrong PIN logged in")
            } catch let error as KeyError {
                #expect(error.code == .tokenError && error.message.contains("CKR_PIN_INCORRECT"), "\(error)")
                #expect(!error.message.contains("000000"), "the message shows no PIN")
            }
        }
    }

    @Test("a token that does not answer in time fails the call with providerUnavailable instead of hanging")
    func timeouts() async throws {
        // A call that blocks until the test lets it go, as an HSM that
        // stopped answering does.
        let queue = DispatchQueue(label: "stuck")
        let release = DispatchSemaphore(value: 0)
        let code = await KeyFileProviderTests.code {
            try await PKCS11Provider.run(on: queue, timeout: .milliseconds(200), what: "a test call") {
                () throws(KeyError) -> Int in
                release.wait()
                return 1
            }
        }
        #expect(code == .providerUnavailable)
        release.signal()
        // The queue is free again afterwards.
        #expect(
            try await PKCS11Provider.run(on: queue, timeout: .seconds(30), what: "a test call") { () throws(KeyError) in
                2
            } == 2
        )
    }

    @Test(
        "rotation on a token: a new label wraps, keys the old one wrapped still unwrap until it is destroyed, the key in use cannot be"
    )
    func rotation() async throws {
        let token = try SoftHSM.makeToken()
        let old = try await PKCS11Provider(configuration: SoftHSM.configuration(token: token))
        let key = DataKey.generate()
        let material = key.material.withUnsafeBytes { Array($0) }
        let wrappedByOld = try await old.wrap(key)
        var next = SoftHSM.configuration(token: token)
        next.keyLabel = "anchorage-wrapping-key-2"
        let rotated = try await PKCS11Provider(configuration: next)
        #expect(try await rotated.currentWrappingKeyID() == "pkcs11:anchorage-wrapping-key-2")
        // The new provider finds the retired key on the token and unwraps with it …
        #expect(try await rotated.unwrap(wrappedByOld).material.withUnsafeBytes { Array($0) } == material)
        // … and re-wraps with the new one, which the old provider also finds.
        let rewrapped = try await rotated.wrap(try await rotated.unwrap(wrappedByOld))
        #expect(rewrapped.wrappingKeyID == "pkcs11:anchorage-wrapping-key-2")
        #expect(try await old.unwrap(rewrapped).material.withUnsafeBytes { Array($0) } == material)
        // A key of another provider, or a label the token never held: typed errors.
        let foreign = WrappedKey(
            keyID: wrappedByOld.keyID,
            version: 1,
            wrappingKeyID: "file-1",
            bytes: wrappedByOld.bytes
        )
        #expect(await KeyFileProviderTests.code { try await rotated.unwrap(foreign) } == .wrappingKeyUnavailable)
        let unknown = WrappedKey(
            keyID: wrappedByOld.keyID,
            version: 1,
            wrappingKeyID: "pkcs11:never-made",
            bytes: wrappedByOld.bytes
        )
        #expect(await KeyFileProviderTests.code { try await rotated.unwrap(unknown) } == .wrappingKeyUnavailable)
        // The key in use is not destroyed; the retired one is, and what only it wrapped is lost.
        #expect(
            await KeyFileProviderTests.code { try await rotated.destroyRetiredKey(label: "anchorage-wrapping-key-2") }
                == .invalidArgument
        )
        try await rotated.destroyRetiredKey(label: "anchorage-wrapping-key")
        #expect(await KeyFileProviderTests.code { try await rotated.unwrap(wrappedByOld) } == .wrappingKeyUnavailable)
        let restarted = try await PKCS11Provider(configuration: next)
        #expect(await KeyFileProviderTests.code { try await restarted.unwrap(wrappedByOld) } == .wrappingKeyUnavailable)
        #expect(try await restarted.unwrap(rewrapped).material.withUnsafeBytes { Array($0) } == material)
        #expect(
            await KeyFileProviderTests.code { try await rotated.destroyRetiredKey(label: "anchorage-wrapping-key") }
                == .keyMissing
        )
    }
}
