import AnchorageTesting
import ArgumentParser
import Foundation
import Testing

@testable import AnchorageCLI

/// `anchorage serve --stores DIR --seal`: the options that name where the
/// wrapping keys are, and what they refuse.
@Suite("Command line: sealing options")
struct CLISealingTests {
    /// The error parsing (and validating) `arguments` gives, or `nil`.
    static func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try AnchorageCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return AnchorageCommand.message(for: error)
        }
    }

    @Test("options that do not go together are usage errors naming them")
    func refusals() {
        #expect(Self.refusal(["serve", "--stores", "/tmp/x", "--key-file", "/tmp/k"])?.contains("--seal") == true)
        #expect(
            Self.refusal(["serve", "--stores", "/tmp/x", "--seal", "--key-file", "/tmp/k", "--pkcs11-module", "/m.so"])?
                .contains("not both") == true
        )
        #expect(
            Self.refusal(["serve", "--stores", "/tmp/x", "--seal", "--pkcs11-module", "/m.so"])?
                .contains("--pkcs11-token") == true
        )
        #expect(
            Self.refusal(["serve", "--stores", "/tmp/x", "--seal", "--pkcs11-token", "t"])?.contains("--pkcs11-module")
                == true
        )
        #expect(Self.refusal(["serve", "--stores", "/tmp/x", "--seal", "--key-file", "/tmp/k"]) == nil)
    }

    @Test("a key file others can read stops the node before it serves, saying what to do")
    func unsafeKeyFile() async throws {
        try await withTemporaryDirectory { directory in
            let keyFile = directory.appending(path: "wrapping.keys")
            try "# not yet\n".write(to: keyFile, atomically: true, encoding: .utf8)
            chmod(keyFile.path, 0o644)
            do {
                _ = try await runCLI([
                    "serve", "--stores", directory.appending(path: "stores").path, "--port", "0", "--seal",
                    "--key-file", keyFile.path,
                ])
                Issue.record("the node served with a key file others can read")
            } catch {
                let message = "\(error)"
                #expect(message.contains("chmod 600"), "\(message)")
            }
            do {
                _ = try await runCLI([
                    "serve", "--store", directory.appending(path: "one").path, "--port", "0", "--seal",
                ])
                Issue.record("--seal was taken without --stores")
            } catch {
                #expect("\(error)".contains("--stores"), "\(error)")
            }
        }
    }
}
