import AnchorageLog
public import AnchorageModel
import Foundation

extension HKHealthStore {
    /// Builds a new store in `directory` whose state is exactly this
    /// store's as of `anchor`: the entries up to it, with their dots and
    /// origin times, and every index and statistics view built from them.
    /// Queries on the returned store answer "as of anchor N". Two replays to
    /// the same anchor have the same ``stateDigest()``. Owner only; the
    /// caller closes the returned store. (An Anchorage addition.)
    ///
    /// ```swift
    /// let past = try await store.replay(to: anchor, into: URL(fileURLWithPath: "/tmp/as-of"))
    /// let steps = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType)],
    ///                                               sortDescriptors: []).result(for: past)
    /// await past.close()
    /// ```
    ///
    /// - Throws: `errorInvalidArgument` for an anchor of another store or
    ///   past the end of this one's log (AQ-11), or a directory that
    ///   already holds a store;
    ///   `errorAuthorizationDenied` for an app's handle.
    public func replay(
        to anchor: HKQueryAnchor,
        into directory: URL,
        configuration: Configuration = Configuration(),
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws -> HKHealthStore {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, "only the store's owner replays its log")
        }
        let engine = try await openEngine()
        let target = try engine.read { txn in try anchor.position(in: engine, head: engine.head(in: txn)) }
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("data.mdb").path) {
            throw HKError(.errorInvalidArgument, "\(directory.path) already holds a store; replay into a new directory")
        }
        // A replay of a sealed store is the same person's store: sealed
        // under the same key unless the caller says otherwise.
        var configuration = configuration
        if case .off = configuration.log.sealing, engine.log.sealingKeyID != nil {
            configuration.log.sealing = engine.log.configuration.sealing
        }
        let replica = HKHealthStore(directory: directory, configuration: configuration)
        do {
            let log = try replica.eventLog()
            var after: Anchor?
            var read = 0
            // Each page is read (and its digests computed) while the one
            // before it is applied, and applied after it, in order.
            var applying: Task<Int, any Error>?
            do {
                while read < target {
                    let page = try engine.log.entries(after: after, limit: Int(min(4_096, target - UInt64(read))))
                    guard !page.entries.isEmpty else { break }
                    if let applying {
                        // Awaited whether or not anyone follows the progress.
                        let applied = try await applying.value
                        progress?(applied)
                    }
                    read += page.entries.count
                    after = page.next
                    let entries = page.entries
                    let total = read
                    applying = Task {
                        try await log.apply(entries)
                        return total
                    }
                }
                if let applying {
                    let applied = try await applying.value
                    progress?(applied)
                }
            } catch {
                // Nothing may still write into the replica when it closes.
                applying?.cancel()
                _ = try? await applying?.value
                throw error
            }
        } catch {
            await replica.close()
            throw HKError.wrapping(error)
        }
        return replica
    }
}
