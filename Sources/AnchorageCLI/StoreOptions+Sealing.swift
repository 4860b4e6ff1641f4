import AnchorageKeys
import AnchorageLog
import AnchorageService
import Foundation

/// The key file commands unwrap a node's sealed stores with, when set (a
/// test's own); otherwise `$ANCHORAGE_KEY_FILE`, else the default.
enum SealedStoreKeyFile {
    @TaskLocal static var override: URL?
}

extension StoreOptions {
    /// How the store opens: unsealed, or — for a sealed store of a
    /// node (a directory beside its registry) — under its data key,
    /// unwrapped with the node's key file (`$ANCHORAGE_KEY_FILE`, else
    /// `~/.anchorage/wrapping.keys`). A store that does not exist yet opens
    /// unsealed.
    ///
    /// - Throws: ``CommandFailure`` for a sealed store outside a node's
    ///   directory, one whose key was shredded, or one whose key the file
    ///   cannot unwrap (a node wrapping its keys on an HSM).
    func sealing() async throws -> EventLog.Sealing {
        let keyID: KeyID?
        do {
            keyID = try EventLog.sealingKeyID(at: directory)
        } catch {
            return .off
        }
        guard let keyID else { return .off }
        let root = directory.standardizedFileURL.deletingLastPathComponent()
        let name = directory.standardizedFileURL.lastPathComponent
        guard FileManager.default.fileExists(atPath: root.appending(path: NodeRegistry.directoryName).path),
            let store = try? StoreName(name)
        else {
            throw CommandFailure(
                description: "the store at \(directory.path) is sealed under data key \(keyID), and it is not in a "
                    + "node's directory whose registry holds the key; `audit verify` checks it without the key"
            )
        }
        let keyFile =
            SealedStoreKeyFile.override
            ?? ProcessInfo.processInfo.environment["ANCHORAGE_KEY_FILE"].map { URL(fileURLWithPath: $0) }
            ?? KeyProviderOptions.defaultKeyFile
        // A missing file is not made here: a new one could unwrap nothing.
        guard FileManager.default.fileExists(atPath: keyFile.path) else {
            throw CommandFailure(
                description: "the store at \(directory.path) is sealed, and there is no key file at \(keyFile.path) "
                    + "to unwrap its data key; set ANCHORAGE_KEY_FILE to the node's key file"
            )
        }
        do {
            let registry = try NodeRegistry(root: root)
            let keyring = StoreKeyring(registry: registry, provider: try KeyFileProvider(url: keyFile))
            return .sealed(try await keyring.dataKeys(keyID, store: store))
        } catch let error as ServiceError {
            throw CommandFailure(
                description: "\(error.message) (key file \(keyFile.path); set ANCHORAGE_KEY_FILE for another, or "
                    + "go through the node's HTTP API when it wraps its keys on an HSM)"
            )
        } catch let error as KeyError {
            throw CommandFailure(description: "the key file \(keyFile.path) cannot be used: \(error.message)")
        }
    }
}
