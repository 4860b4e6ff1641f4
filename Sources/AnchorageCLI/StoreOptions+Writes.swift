import AnchorageService
import Foundation

extension StoreOptions {
    /// What a write by this command must keep: the store's quota when the
    /// store belongs to a node's registry (`DIR/<id>` beside
    /// `DIR/.registry`) — the same guard a node's requests pass.
    ///
    /// ```swift
    /// let saved = try await SampleWrites.save(batch, to: store, guarded: try storeOptions.writeGuard())
    /// ```
    func writeGuard() throws -> WriteGuard {
        let root = directory.standardizedFileURL.deletingLastPathComponent()
        let registryPath = root.appending(path: NodeRegistry.directoryName).path
        guard FileManager.default.fileExists(atPath: registryPath),
            let name = try? StoreName(directory.standardizedFileURL.lastPathComponent)
        else { return WriteGuard() }
        do {
            let record = try NodeRegistry(root: root).store(name)
            return WriteGuard(storageQuota: record?.maximumBytes.map { .init(store: name.rawValue, bytes: $0) })
        } catch {
            throw CommandFailure(
                description: "cannot read the quota of store \(name) from its registry: \(error.message)"
            )
        }
    }
}
