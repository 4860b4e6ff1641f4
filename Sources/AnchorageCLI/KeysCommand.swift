import AnchorageKeys
import AnchorageLog
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage keys`: the data keys of a multi-store node that seals
/// (`serve --stores DIR --seal`).
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List, shred and re-wrap the data keys of a multi-store node that seals its stores.",
        subcommands: [
            KeysListCommand.self, KeysSealCommand.self, KeysShredCommand.self, KeysRotateCommand.self,
            KeysRekeyCommand.self,
        ]
    )
}

/// `anchorage keys list`.
struct KeysListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Each store and its data key: key id, versions and the wrapping key of each; shredded keys."
    )

    @OptionGroup var node: NodeRootOption

    func run() throws {
        let registry = try node.registry()
        let output = CLIOutput.current
        for record in try registryCall({ () throws(ServiceError) in try registry.stores() }) {
            let name = try registryCall { () throws(ServiceError) in try StoreName(record.id) }
            guard let keyID = try registryCall({ () throws(ServiceError) in try registry.keyID(of: name) }) else {
                output.line("\(name)\tnot sealed")
                continue
            }
            if let shredded = try registryCall({ () throws(ServiceError) in try registry.shredded(keyID) }) {
                output.line("\(name)\t\(keyID)\tshredded \(shredded.at.formatted(.iso8601)) by \(shredded.by)")
                continue
            }
            let versions = try registryCall { () throws(ServiceError) in try registry.wrappedKeys(keyID) }
            let described = versions.map { "v\($0.version) (\($0.wrappingKeyID))" }.joined(separator: ", ")
            output.line("\(name)\t\(keyID)\t\(described)")
        }
    }
}

/// `anchorage keys shred STORE`.
struct KeysShredCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shred",
        abstract: "Destroy a store's data key: its data can never be read again, on any copy (crypto-shredding).",
        discussion: """
            The registry's wrapped versions of the key are deleted and a tombstone kept, in one commit. Every
            copy of the store — this node's, replicas', backups, relays', directories copied off a disk — holds
            only what the key sealed, and answers keyShredded from then on; `audit verify` still passes on
            each without a key. The erasure is complete once no backup of the registry, nor of the wrapping
            key that wrapped it, remains (rotate the wrapping key and destroy the old one after your
            registry backups' retention). A running node's open copy answers until it closes.
            """
    )

    @OptionGroup var node: NodeRootOption

    @Argument(help: "The store whose data key to destroy.")
    var store: String

    @Option(help: "Who asks, recorded in the tombstone.")
    var by = "anchorage keys shred"

    func run() throws {
        let registry = try node.registry()
        let name = try registryCall { () throws(ServiceError) in try StoreName(store) }
        guard let keyID = try registryCall({ () throws(ServiceError) in try registry.keyID(of: name) }) else {
            throw CommandFailure(description: "store \(name) is not sealed: there is no data key to shred")
        }
        let tombstone = try registryCall { () throws(ServiceError) in try registry.shred(keyID, by: by) }
        CLIOutput.current.line("shredded the data key \(keyID) of \(name) at \(tombstone.at.formatted(.iso8601))")
    }
}

/// `anchorage keys rotate`.
struct KeysRotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Re-wrap every data key of the registry with a new wrapping key; no store is touched.",
        discussion: """
            With the key file: a new wrapping key is added to it. The previous ones are kept, retired, so \
            backups of the registry made before still unwrap; --destroy-retired-days D destroys the retired \
            ones older than D days: data keys that only such a backup holds wrapped can never be unwrapped \
            again, which is what completes a shredding.

            With a PKCS#11 token: name the new key with --pkcs11-key-label (--pkcs11-create-key generates it, \
            non-extractable); data keys wrapped by another key of the token are unwrapped with it and re-wrapped \
            with the new one. Start serve with the new label afterwards. The old key stays on the token until \
            --pkcs11-destroy-label destroys it, refused while a data key of the registry is wrapped by it.
            """
    )

    @OptionGroup var node: NodeRootOption

    @OptionGroup var keys: KeyProviderOptions

    @Option(
        parsing: .unconditional,
        help: "With the key file: destroy retired wrapping keys older than this many days."
    )
    var destroyRetiredDays: Double?

    @Option(
        help: "With --pkcs11-module: destroy the token's retired wrapping key with this label once nothing uses it."
    )
    var pkcs11DestroyLabel: [String] = []

    func validate() throws {
        if keys.pkcs11Module != nil, destroyRetiredDays != nil {
            throw ValidationError("--destroy-retired-days is for the key file; with a token use --pkcs11-destroy-label")
        }
        if keys.pkcs11Module == nil, !pkcs11DestroyLabel.isEmpty {
            throw ValidationError("--pkcs11-destroy-label goes with --pkcs11-module")
        }
        if pkcs11DestroyLabel.contains(keys.pkcs11KeyLabel) {
            throw ValidationError(
                "--pkcs11-destroy-label \"\(keys.pkcs11KeyLabel)\" names the wrapping key in use (--pkcs11-key-label)"
            )
        }
    }

    func run() async throws {
        let registry = try node.registry()
        let output = CLIOutput.current
        do {
            let provider: any KeyProvider
            if keys.pkcs11Module != nil {
                provider = try await keys.provider()
            } else {
                let file = try KeyFileProvider(
                    url: keys.keyFile.map { URL(fileURLWithPath: $0) } ?? KeyProviderOptions.defaultKeyFile
                )
                output.line("wrapping key \(try file.rotate()) added to \(file.url.path)")
                provider = file
            }
            let count = try await StoreKeyring(registry: registry, provider: provider).rewrapAll()
            output.line("\(count) data keys re-wrapped with \(try await provider.currentWrappingKeyID())")
            if let days = destroyRetiredDays, let file = provider as? KeyFileProvider {
                let destroyed = try file.destroy(retiredBefore: Date(timeIntervalSinceNow: -days * 86_400))
                output.line("destroyed \(destroyed.count) retired wrapping keys")
            }
            if let token = provider as? PKCS11Provider {
                let used = Set(try registry.allWrappedKeys().map(\.wrappingKeyID))
                for label in pkcs11DestroyLabel {
                    guard !used.contains(PKCS11Provider.wrappingKeyPrefix + label) else {
                        throw CommandFailure(
                            description:
                                "the token's key \"\(label)\" still wraps data keys of this registry: not destroyed"
                        )
                    }
                    try await token.destroyRetiredKey(label: label)
                    output.line("destroyed the token's retired wrapping key \"\(label)\"")
                }
            }
        } catch let error as KeyError {
            throw CommandFailure(description: error.message)
        } catch let error as ServiceError {
            throw CommandFailure(description: error.message)
        }
    }
}

/// `anchorage keys seal STORE`.
struct KeysSealCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seal",
        abstract: "Seal every entry of an existing store under a data key of its own (the store must be closed).",
        discussion: """
            The store's data key is made and recorded in the registry first (or its own is used), then the
            projections' file is deleted (it is rebuilt from the sealed log at the next open), the log is
            rewritten sealed in one transaction, and the data file compacted, so that none of its files keeps
            an entry in clear. Interrupted, it is run again and finishes. The sealing is deterministic: a
            replica sealed under the same key gets the same bytes. Blocks the file system freed may keep old
            bytes until reused: encrypt the disk itself for those.
            """
    )

    @OptionGroup var node: NodeRootOption

    @Argument(help: "The store to seal.")
    var store: String

    @OptionGroup(title: "Wrapping keys") var keyProvider: KeyProviderOptions

    func run() async throws {
        let registry = try node.registry()
        let name = try registryCall { () throws(ServiceError) in try StoreName(store) }
        guard try registryCall({ () throws(ServiceError) in try registry.store(name) }) != nil else {
            throw CommandFailure(description: "there is no store \(name)")
        }
        let provider = try await keyProvider.provider()
        let keyring = StoreKeyring(registry: registry, provider: provider)
        do {
            let keys = try await keyring.keysForSealing(name)
            let directory = registry.directory(of: name)
            guard FileManager.default.fileExists(atPath: directory.appending(path: "data.mdb").path) else {
                // Never opened: created sealed, so its first entry is.
                var configuration = EventLog.Configuration()
                configuration.sealing = .sealed(keys)
                await (try EventLog.open(at: directory, configuration: configuration)).close()
                CLIOutput.current.line("sealed 0 entries of \(name) under data key \(keys[0].id) (a new store)")
                return
            }
            let report = try EventLog.seal(at: directory, keys: keys)
            CLIOutput.current.line(
                "sealed \(report.entries) entries of \(name) under data key \(keys[0].id); data file "
                    + "\(report.bytesBefore) → \(report.bytesAfter) bytes"
            )
        } catch let error as ServiceError {
            throw CommandFailure(description: error.message)
        } catch {
            throw CommandFailure(description: "cannot seal \(name): \(ErrorWords.describe(error))")
        }
    }
}
