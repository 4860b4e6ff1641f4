import Anchorage
import AnchorageKeys
import AnchorageLog
import AnchorageService
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageCLI

/// `anchorage keys rotate` on a node whose data keys a PKCS#11 token wraps
/// (SoftHSM2, a real token).
@Suite("Command line: rotating the wrapping key on a PKCS#11 token", .serialized)
struct CLIPKCS11RotationTests {
    @Test(
        "keys rotate moves every data key to the token's new key, destroys the retired one, and refuses to destroy one in use"
    )
    func rotatesOnTheToken() async throws {
        let token = try SoftHSM.makeToken()
        try await withTemporaryDirectory { directory in
            let root = directory.appending(path: "node")
            let tokenOptions = [
                "--pkcs11-module", SoftHSM.module, "--pkcs11-token", token, "--pkcs11-pin-file", SoftHSM.pinFile.path,
            ]
            _ = try await runCLI(["stores", "create", "alice", "--stores", root.path])
            let sealed = try await runCLI(
                ["keys", "seal", "alice", "--stores", root.path, "--pkcs11-create-key"] + tokenOptions
            )
            #expect(sealed.contains("alice"), "\(sealed)")
            let registry = try NodeRegistry(root: root)
            let alice = try StoreName("alice")
            let keyID = try #require(try registry.keyID(of: alice))
            let before = try registry.wrappedKeys(keyID)
            #expect(before.map(\.wrappingKeyID) == ["pkcs11:anchorage-wrapping-key"])

            // Naming the key in use as the one to destroy is refused before anything changes.
            let refused = try await runCLIFailure(
                ["keys", "rotate", "--stores", root.path, "--pkcs11-key-label", "anchorage-wrapping-key-2"]
                    + ["--pkcs11-create-key", "--pkcs11-destroy-label", "anchorage-wrapping-key-2"] + tokenOptions
            )
            #expect(refused.contains("in use"), "\(refused)")
            #expect(try registry.wrappedKeys(keyID) == before)
            #expect(
                try await runCLIFailure(
                    ["keys", "rotate", "--stores", root.path, "--destroy-retired-days", "30"] + tokenOptions
                ).contains("--pkcs11-destroy-label")
            )

            let rotated = try await runCLI(
                ["keys", "rotate", "--stores", root.path, "--pkcs11-key-label", "anchorage-wrapping-key-2"]
                    + ["--pkcs11-create-key", "--pkcs11-destroy-label", "anchorage-wrapping-key"] + tokenOptions
            )
            #expect(rotated.contains("1 data keys re-wrapped with pkcs11:anchorage-wrapping-key-2"), "\(rotated)")
            #expect(rotated.contains("destroyed the token's retired wrapping key \"anchorage-wrapping-key\""))
            let after = try registry.wrappedKeys(keyID)
            #expect(after.map(\.wrappingKeyID) == ["pkcs11:anchorage-wrapping-key-2"])

            // The node, started with the new label, opens the store; the
            // registry's copy from before the rotation unwraps nowhere.
            var configuration = SoftHSMConfiguration.of(token: token)
            configuration.keyLabel = "anchorage-wrapping-key-2"
            let provider = try await PKCS11Provider(configuration: configuration)
            let keyring = StoreKeyring(registry: registry, provider: provider)
            #expect(try await keyring.dataKeys(keyID, store: alice).map(\.version) == [1])
            do {
                _ = try await provider.unwrap(before[0])
                Issue.record("a data key wrapped by the destroyed key unwrapped")
            } catch {
                #expect((error as? KeyError)?.code == .wrappingKeyUnavailable, "\(error)")
            }
            let audit = try await runCLI(["audit", "verify", "--store", registry.directory(of: alice).path])
            #expect(audit.contains("intact"), "\(audit)")
        }
    }
}

/// A PKCS#11 configuration for a SoftHSM2 token.
enum SoftHSMConfiguration {
    static func of(token: String) -> PKCS11Provider.Configuration {
        PKCS11Provider.Configuration(module: SoftHSM.module, token: token, pinFile: SoftHSM.pinFile)
    }
}
