import AnchorageLog
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage keys rekey STORE`.
struct KeysRekeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Give a store's data key a new version, re-seal the person's stores under it, destroy the old ones.",
        discussion: """
            For a data key that may have leaked, or on a schedule. A new version of the store's data key is
            made and recorded, every store of the node sealed under that key is re-sealed under it (the stores
            must be closed: stop the node first) and compacted, then the older versions are destroyed. Each
            re-sealed store starts a new incarnation: anchors taken before are refused, and consumers read it
            again. The re-sealing is deterministic, so a replica re-sealed under the same key gets the same
            bytes. Interrupted, run it again: it adds another version and finishes.
            """
    )

    @OptionGroup var node: NodeRootOption

    @Argument(help: "A store sealed under the data key to change.")
    var store: String

    @OptionGroup(title: "Wrapping keys") var keyProvider: KeyProviderOptions

    func run() async throws {
        let registry = try node.registry()
        let name = try registryCall { () throws(ServiceError) in try StoreName(store) }
        guard try registryCall({ () throws(ServiceError) in try registry.store(name) }) != nil else {
            throw CommandFailure(description: "there is no store \(name)")
        }
        let keyring = StoreKeyring(registry: registry, provider: try await keyProvider.provider())
        do {
            let done = try await keyring.rekey(name)
            for (store, entries) in done.stores.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                CLIOutput.current.line("re-sealed \(entries) entries of \(store) under version \(done.version)")
            }
            let destroyed = done.destroyed.map(String.init).joined(separator: ", ")
            CLIOutput.current.line(
                "data key \(done.keyID) is at version \(done.version)"
                    + (destroyed.isEmpty ? "" : "; destroyed version(s) \(destroyed)")
            )
        } catch let error as ServiceError {
            throw CommandFailure(description: error.message)
        } catch {
            throw CommandFailure(description: "cannot re-key \(name): \(ErrorWords.describe(error))")
        }
    }
}
