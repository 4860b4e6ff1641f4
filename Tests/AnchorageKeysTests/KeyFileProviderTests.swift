import AnchorageKeys
import AnchorageLog
import AnchorageTesting
import Crypto
import Foundation
import Testing

/// The key file: the wrapping keys a node keeps on its own disk.
@Suite("Keys: the key file provider")
struct KeyFileProviderTests {
    static func code(_ body: () async throws -> Any) async -> KeyError.Code? {
        do {
            _ = try await body()
            return nil
        } catch {
            return (error as? KeyError)?.code
        }
    }

    @Test("the file is created 0600 on first use; a data key wraps and unwraps to the same bytes")
    func createsAndRoundTrips() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("keys/wrapping.keys")
            let provider = try KeyFileProvider(url: url)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let key = DataKey.generate()
            let wrapped = try await provider.wrap(key)
            #expect(wrapped.keyID == key.id && wrapped.version == key.version)
            #expect(wrapped.bytes.count == WrappedKey.wrappedSize)
            let material = key.material.withUnsafeBytes { Array($0) }
            #expect(!wrapped.bytes.indices.dropLast(31).contains { Array(wrapped.bytes[$0..<$0 + 32]) == material })
            let unwrapped = try await provider.unwrap(wrapped)
            #expect(unwrapped.material.withUnsafeBytes { Array($0) } == material)
            // A second provider on the same file (the node after a restart).
            let again = try KeyFileProvider(url: url)
            #expect(try await again.unwrap(wrapped).material.withUnsafeBytes { Array($0) } == material)
            // Two wraps of one key differ (a fresh nonce each time).
            #expect(try await provider.wrap(key).bytes != wrapped.bytes)
        }
    }

    @Test("a changed wrapped key, or one passed off as another key or version, does not unwrap")
    func tamperedWrapsFail() async throws {
        try await withTemporaryDirectory { directory in
            let provider = try KeyFileProvider(url: directory.appendingPathComponent("wrapping.keys"))
            let wrapped = try await provider.wrap(DataKey.generate())
            var flipped = wrapped.bytes
            flipped[20] ^= 1
            let forgeries = [
                WrappedKey(
                    keyID: wrapped.keyID,
                    version: wrapped.version,
                    wrappingKeyID: wrapped.wrappingKeyID,
                    bytes: flipped
                ),
                WrappedKey(
                    keyID: KeyID(),
                    version: wrapped.version,
                    wrappingKeyID: wrapped.wrappingKeyID,
                    bytes: wrapped.bytes
                ),
                WrappedKey(
                    keyID: wrapped.keyID,
                    version: 2,
                    wrappingKeyID: wrapped.wrappingKeyID,
                    bytes: wrapped.bytes
                ),
                WrappedKey(
                    keyID: wrapped.keyID,
                    version: wrapped.version,
                    wrappingKeyID: wrapped.wrappingKeyID,
                    bytes: Array(wrapped.bytes.prefix(20))
                ),
            ]
            for forged in forgeries {
                #expect(await Self.code { try await provider.unwrap(forged) } == .unwrapFailed)
            }
            let unknown = WrappedKey(keyID: wrapped.keyID, version: 1, wrappingKeyID: "file-00", bytes: wrapped.bytes)
            #expect(await Self.code { try await provider.unwrap(unknown) } == .wrappingKeyUnavailable)
        }
    }

    @Test("a key file others can read, a directory, or a damaged file is refused with a reason")
    func unsafeFilesAreRefused() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("wrapping.keys")
            _ = try KeyFileProvider(url: url)
            chmod(url.path, 0o644)
            #expect(await Self.code { try KeyFileProvider(url: url) } == .invalidKeyFile)
            chmod(url.path, 0o600)
            #expect(await Self.code { try KeyFileProvider(url: directory) } == .invalidKeyFile)
            var text = try String(contentsOf: url, encoding: .utf8)
            text += "v1 file-1234 active 1700000000 not-base64\n"
            try text.write(to: url, atomically: false, encoding: .utf8)
            do {
                _ = try KeyFileProvider(url: url)
                Issue.record("a damaged line was accepted")
            } catch let error as KeyError {
                #expect(error.code == .invalidKeyFile && error.message.contains(":5"), "\(error)")
                #expect(!error.message.contains("not-base64"), "the message quotes no key material")
            }
        }
    }

    @Test("rotation: new wraps use the new key, old wraps still unwrap until their key is destroyed")
    func rotation() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("wrapping.keys")
            let provider = try KeyFileProvider(url: url)
            let before = try await provider.wrap(DataKey.generate())
            // The command line rotates beside a running node.
            let cli = try KeyFileProvider(url: url)
            let newID = try cli.rotate(now: Date(timeIntervalSinceNow: 1))
            #expect(newID != before.wrappingKeyID)
            #expect(try await cli.wrap(DataKey.generate()).wrappingKeyID == newID)
            let after = try await cli.wrap(DataKey.generate())
            // The node learns of the new key when it meets it.
            #expect(try await provider.unwrap(after).id == after.keyID)
            #expect(try await provider.unwrap(before).id == before.keyID)
            #expect(cli.wrappingKeys().map(\.retired) == [true, false])
            #expect(try cli.destroy(retiredBefore: Date(timeIntervalSinceNow: 3600)) == [before.wrappingKeyID])
            #expect(await Self.code { try await KeyFileProvider(url: url).unwrap(before) } == .wrappingKeyUnavailable)
            #expect(try await KeyFileProvider(url: url).unwrap(after).id == after.keyID)
        }
    }
}
