import Anchorage
import AnchorageKeys
import AnchorageLog
import AnchorageService
import AnchorageStoreTesting
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

/// `anchorage keys` and `audit verify` on a sealed store of a multi-store node.
@Suite("Command line: keys and audits of sealed stores")
struct CLIKeysTests {
    @Test(
        "keys list, audit verify without the key, keys rotate re-wraps, keys shred leaves a verifiable store nobody reads"
    )
    func keysLifecycle() async throws {
        try await withTemporaryDirectory { directory in
            let root = directory.appending(path: "node")
            let keyFile = directory.appending(path: "wrapping.keys")
            _ = try await runCLI(["stores", "create", "alice", "bob", "--stores", root.path])
            let registry = try NodeRegistry(root: root)
            let keyring = StoreKeyring(registry: registry, provider: try KeyFileProvider(url: keyFile))
            let alice = try StoreName("alice")
            var configuration = HKHealthStore.Configuration.forTests
            configuration.log.sealing = try await keyring.sealing(for: alice, directory: registry.directory(of: alice))
            let store = HKHealthStore(directory: registry.directory(of: alice), configuration: configuration)
            try await store.save(
                HKQuantitySample(
                    type: HKQuantityType(.heartRate),
                    quantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 72),
                    start: Date(timeIntervalSince1970: 1_717_200_000),
                    end: Date(timeIntervalSince1970: 1_717_200_000)
                )
            )
            await store.close()
            let keyID = try #require(try registry.keyID(of: alice))
            let listed = try await runCLI(["keys", "list", "--stores", root.path])
            #expect(listed.contains("alice\t\(keyID)\tv1 (file-") && listed.contains("bob\tnot sealed"), "\(listed)")

            let audit = try await runCLI(["audit", "verify", "--store", registry.directory(of: alice).path])
            #expect(audit.contains("intact (1 entries") && audit.contains("verified without the key"), "\(audit)")

            let before = try registry.wrappedKeys(keyID)[0].wrappingKeyID
            let rotated = try await runCLI(["keys", "rotate", "--stores", root.path, "--key-file", keyFile.path])
            #expect(rotated.contains("1 data keys re-wrapped"), "\(rotated)")
            let after = try registry.wrappedKeys(keyID)[0]
            #expect(after.wrappingKeyID != before)
            // The re-wrapped key still opens the store.
            #expect(try await keyring.dataKeys(keyID, store: alice).count == 1)

            let shredded = try await runCLI(["keys", "shred", "alice", "--stores", root.path])
            #expect(shredded.contains("shredded the data key \(keyID) of alice"), "\(shredded)")
            #expect(try await runCLI(["keys", "list", "--stores", root.path]).contains("alice\t\(keyID)\tshredded"))
            do {
                _ = try await keyring.sealing(for: alice, directory: registry.directory(of: alice))
                Issue.record("a shredded key unwrapped")
            } catch let error as ServiceError {
                #expect(error.code == .keyShredded)
            }
            let again = try await runCLI(["audit", "verify", "--store", registry.directory(of: alice).path])
            #expect(again.contains("intact (1 entries"), "the shredded store still verifies without a key: \(again)")
            do {
                _ = try await runCLI(["keys", "shred", "bob", "--stores", root.path])
                Issue.record("an unsealed store was shredded")
            } catch {
                #expect("\(error)".contains("not sealed"))
            }
        }
    }
}

extension CLIKeysTests {
    @Test(
        "keys seal: an existing store's entries sealed under a key recorded first, no marker in its files, the same state"
    )
    func sealExisting() async throws {
        try await withTemporaryDirectory { directory in
            let root = directory.appending(path: "node")
            let keyFile = directory.appending(path: "wrapping.keys")
            _ = try await runCLI(["stores", "create", "carol", "--stores", root.path])
            let registry = try NodeRegistry(root: root)
            let carol = try StoreName("carol")
            let marker = "seal-existing-\(UUID().uuidString)"
            let store = HKHealthStore(directory: registry.directory(of: carol), configuration: .forTests)
            try await store.save(
                (0..<10).map { index in
                    HKQuantitySample(
                        type: HKQuantityType(.stepCount),
                        quantity: HKQuantity(unit: .count(), doubleValue: Double(100 + index)),
                        start: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 600),
                        end: Date(timeIntervalSince1970: 1_717_200_300 + Double(index) * 600),
                        metadata: ["note": marker]
                    )
                }
            )
            let digest = try store.stateDigest()
            await store.close()
            let sealed = try await runCLI(["keys", "seal", "carol", "--stores", root.path, "--key-file", keyFile.path])
            #expect(sealed.contains("sealed 10 entries of carol"), "\(sealed)")
            let keyID = try #require(try registry.keyID(of: carol))
            for name in try FileManager.default.contentsOfDirectory(atPath: registry.directory(of: carol).path) {
                let bytes = try Data(contentsOf: registry.directory(of: carol).appending(path: name))
                #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(name) holds the marker after sealing")
            }
            let keyring = StoreKeyring(registry: registry, provider: try KeyFileProvider(url: keyFile))
            var configuration = HKHealthStore.Configuration.forTests
            configuration.log.sealing = try await keyring.sealing(for: carol, directory: registry.directory(of: carol))
            let reopened = HKHealthStore(directory: registry.directory(of: carol), configuration: configuration)
            #expect(try reopened.stateDigest() == digest)
            #expect(try reopened.eventLog().sealingKeyID == keyID)
            await reopened.close()
            let again = try await runCLI(["keys", "seal", "carol", "--stores", root.path, "--key-file", keyFile.path])
            #expect(again.contains("sealed 0 entries"), "sealing twice changes nothing: \(again)")
        }
    }
}

/// `anchorage backup`: a log-only copy, sealed or not.
@Suite("Command line: log-only backups")
struct CLIBackupTests {
    @Test(
        "a sealed store's backup holds the log alone (or sealed projections), no marker, verifies without the key, and restores to the same state with it"
    )
    func sealedBackup() async throws {
        try await withTemporaryDirectory { directory in
            let key = DataKey.generate()
            let source = directory.appending(path: "source")
            var configuration = HKHealthStore.Configuration.forTests
            configuration.log.sealing = .sealed([key])
            let marker = "backup-marker-\(UUID().uuidString)"
            let store = HKHealthStore(directory: source, configuration: configuration)
            try await store.save(
                (0..<20).map { index in
                    HKQuantitySample(
                        type: HKQuantityType(.heartRate),
                        quantity: HKQuantity(
                            unit: .count().unitDivided(by: .minute()),
                            doubleValue: Double(60 + index)
                        ),
                        start: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 60),
                        end: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 60),
                        metadata: ["note": marker]
                    )
                }
            )
            let digest = try store.stateDigest()
            // Taken beside the open store, as beside a running node.
            let copy = directory.appending(path: "copy")
            let output = try await runCLI(["backup", copy.path, "--store", source.path])
            #expect(output.contains("backed up 20 entries") && output.contains("the log alone"), "\(output)")
            // The log alone, then with its projections, sealed as they are:
            // neither holds the marker; both verify without the key and
            // restore to the same state with it.
            let full = directory.appending(path: "full")
            _ = try await runCLI(["backup", full.path, "--store", source.path, "--with-projections"])
            for (backup, hasProjections) in [(copy, false), (full, true)] {
                let names = try FileManager.default.contentsOfDirectory(atPath: backup.path)
                #expect(names.contains("projections.mdb") == hasProjections, "\(names)")
                for name in names {
                    let bytes = try Data(contentsOf: backup.appending(path: name))
                    #expect(
                        bytes.range(of: Data(marker.utf8)) == nil,
                        "\(backup.lastPathComponent)'s \(name) holds the marker"
                    )
                }
                #expect(try await runCLI(["audit", "verify", "--store", backup.path]).contains("intact (20 entries"))
                let restored = HKHealthStore(directory: backup, configuration: configuration)
                #expect(try restored.stateDigest() == digest)
                #expect(try await restored.eventLog().checkProjections() == nil)
                await restored.close()
            }
            await store.close()
        }
    }

    @Test("an unsealed store's backup restores to the same state, with or without its projections")
    func plainBackup() async throws {
        try await withTemporaryDirectory { directory in
            let source = directory.appending(path: "source")
            let store = HKHealthStore(directory: source, configuration: .forTests)
            try await store.save(
                HKQuantitySample(
                    type: HKQuantityType(.stepCount),
                    quantity: HKQuantity(unit: .count(), doubleValue: 120),
                    start: Date(timeIntervalSince1970: 1_717_200_000),
                    end: Date(timeIntervalSince1970: 1_717_200_600)
                )
            )
            let digest = try store.stateDigest()
            await store.close()
            for (name, flags) in [("log", [String]()), ("full", ["--with-projections"])] {
                let copy = directory.appending(path: name)
                _ = try await runCLI(["backup", copy.path, "--store", source.path] + flags)
                #expect(
                    FileManager.default.fileExists(atPath: copy.appending(path: "projections.mdb").path) == !flags
                        .isEmpty
                )
                let restored = HKHealthStore(directory: copy, configuration: .forTests)
                #expect(try restored.stateDigest() == digest)
                await restored.close()
            }
        }
    }
}

extension CLIKeysTests {
    @Test(
        "keys rekey: a new version of a person's key, its store re-sealed under it, the old version destroyed, the same state"
    )
    func rekey() async throws {
        try await withTemporaryDirectory { directory in
            let root = directory.appending(path: "node")
            let keyFile = directory.appending(path: "wrapping.keys")
            _ = try await runCLI(["stores", "create", "dana", "--stores", root.path])
            let registry = try NodeRegistry(root: root)
            let dana = try StoreName("dana")
            let store = HKHealthStore(directory: registry.directory(of: dana), configuration: .forTests)
            try await store.save(
                (0..<8).map { index in
                    HKQuantitySample(
                        type: HKQuantityType(.stepCount),
                        quantity: HKQuantity(unit: .count(), doubleValue: Double(200 + index)),
                        start: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 600),
                        end: Date(timeIntervalSince1970: 1_717_200_300 + Double(index) * 600)
                    )
                }
            )
            let digest = try store.stateDigest()
            await store.close()
            _ = try await runCLI(["keys", "seal", "dana", "--stores", root.path, "--key-file", keyFile.path])
            let keyID = try #require(try registry.keyID(of: dana))
            #expect(try registry.wrappedKeys(keyID).map(\.version) == [1])

            let output = try await runCLI(["keys", "rekey", "dana", "--stores", root.path, "--key-file", keyFile.path])
            #expect(output.contains("re-sealed 8 entries of dana under version 2"), "\(output)")
            #expect(output.contains("destroyed version(s) 1"), "\(output)")
            #expect(try registry.wrappedKeys(keyID).map(\.version) == [2])

            let keyring = StoreKeyring(registry: registry, provider: try KeyFileProvider(url: keyFile))
            var configuration = HKHealthStore.Configuration.forTests
            configuration.log.sealing = try await keyring.sealing(for: dana, directory: registry.directory(of: dana))
            let reopened = HKHealthStore(directory: registry.directory(of: dana), configuration: configuration)
            #expect(try reopened.stateDigest() == digest)
            #expect(try await reopened.eventLog().checkProjections() == nil)
            await reopened.close()
            #expect(
                try await runCLI(["audit", "verify", "--store", registry.directory(of: dana).path]).contains("intact")
            )
            // A store that does not seal has no key to change.
            _ = try await runCLI(["stores", "create", "erin", "--stores", root.path])
            do {
                _ = try await runCLI(["keys", "rekey", "erin", "--stores", root.path, "--key-file", keyFile.path])
                Issue.record("a store that does not seal was re-keyed")
            } catch {
                #expect("\(error)".contains("not sealed"), "\(error)")
            }
        }
    }
}

extension CLIKeysTests {
    @Test(
        "import, stats, samples, sources and digest on a node's sealed store, with the node's key file: the same answers as on a plain store; without it, a typed refusal"
    )
    func commandsOnASealedStore() async throws {
        try await withTemporaryDirectory { directory in
            let root = directory.appending(path: "node")
            let keyFile = directory.appending(path: "wrapping.keys")
            let fixture = repositoryRoot.appendingPathComponent("Fixtures/apple-health/export-small.xml").path
            _ = try await runCLI(["stores", "create", "gwen", "--stores", root.path])
            // Sealed before anything is written: `keys seal` of an empty store.
            _ = try await runCLI(["keys", "seal", "gwen", "--stores", root.path, "--key-file", keyFile.path])
            let sealed = root.appending(path: "gwen").path
            let plain = directory.appending(path: "plain").path
            let commands: [[String]] = [
                ["stats", "--type", "stepCount", "--options", "sum", "--from", "2024-01-01", "--to", "2025-01-01"],
                ["samples", "--type", "heartRate", "--limit", "5"],
                ["sources", "--type", "stepCount"],
                ["digest"],
            ]
            let answers = try await SealedStoreKeyFile.$override.withValue(keyFile) {
                #expect(try await runCLI(["import", fixture, "--store", sealed]).contains("imported"))
                _ = try await runCLI(["import", fixture, "--store", plain])
                var answers: [[String]] = [[], []]
                for command in commands {
                    answers[0].append(try await runCLI(command + ["--store", plain]))
                    answers[1].append(try await runCLI(command + ["--store", sealed]))
                }
                return answers
            }
            #expect(answers[0] == answers[1], "a sealed store answers otherwise")
            // With the key file, the audit opens every envelope and replays the indices.
            let audited = try await SealedStoreKeyFile.$override.withValue(keyFile) {
                try await runCLI(["audit", "verify", "--store", sealed])
            }
            #expect(audited.contains("intact") && audited.contains("agree with a replay"), "\(audited)")
            // Without it, as an auditor without the key.
            let keyless = try await SealedStoreKeyFile.$override.withValue(directory.appending(path: "none.keys")) {
                try await runCLI(["audit", "verify", "--store", sealed])
            }
            #expect(keyless.contains("intact") && keyless.contains("not checked"), "\(keyless)")
            #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "none.keys").path))
            // Another key file cannot unwrap the store's key.
            do {
                _ = try await SealedStoreKeyFile.$override.withValue(directory.appending(path: "other.keys")) {
                    try await runCLI(["digest", "--store", sealed])
                }
                Issue.record("a sealed store was read with another wrapping key")
            } catch {
                #expect("\(error)".contains("no key file at"), "\(error)")
            }
            // A key file of another wrapping key cannot unwrap it.
            let other = try KeyFileProvider(url: directory.appending(path: "other.keys"))
            _ = try await other.currentWrappingKeyID()
            do {
                _ = try await SealedStoreKeyFile.$override.withValue(directory.appending(path: "other.keys")) {
                    try await runCLI(["digest", "--store", sealed])
                }
                Issue.record("a sealed store was read with another wrapping key")
            } catch {
                #expect("\(error)".contains("cannot be unwrapped"), "\(error)")
            }
        }
    }
}
