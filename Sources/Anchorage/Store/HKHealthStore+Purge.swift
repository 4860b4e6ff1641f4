import AnchorageLog
public import AnchorageModel
import Foundation
import LMDB

extension HKHealthStore {
    /// Erases the data of samples deleted before `date`: the payloads of
    /// their saves are replaced by nothing, keeping the payload digests, so
    /// the hash chain still verifies and the deletions, ids and dots stay.
    /// Returns how many saves were purged. The indices are then rebuilt
    /// from the log; a purged object's deletion is reported without its
    /// metadata from then on. Owner only. (An Anchorage addition.)
    ///
    /// Purging is local. A peer that still holds a purged payload keeps it,
    /// but never sends it back: this store's version vector covers the
    /// entry, and the sample stays deleted whatever arrives. To remove the
    /// bytes from freed pages of the data file too, close the store and run
    /// `EventLog.compact(at:)` (`anchorage purge` does both).
    ///
    /// ```swift
    /// let purged = try await store.purgeDeletedSamples(before: Date().addingTimeInterval(-30 * 86_400))
    /// ```
    @discardableResult
    public func purgeDeletedSamples(before date: Date) async throws -> Int {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, "only the store's owner purges deleted samples")
        }
        let engine = try await openEngine()
        let cutoff = Int64((date.timeIntervalSince1970 * 1_000_000_000).rounded(.down))
        let deleted = try engine.read { txn in
            var ids = Set<UUID>()
            try txn.withCursor(on: engine.index.objects) { cursor in
                try cursor.scan { key, value in
                    guard let record = ObjectRecord.summary(value), record.state == .deleted,
                        let full = ObjectRecord(value),
                        let deletion = try engine.index.lookup.entry(at: full.deleteSeq, in: txn),
                        deletion.timestamp < cutoff, let id = UUID(indexBytes: key)
                    else { return true }
                    ids.insert(id)
                    return true
                }
            }
            return ids
        }
        do {
            // Every save of a deleted id, not only the one the index shows:
            // the same object saved on several peers (one export imported
            // on each) is in the log once per origin.
            var seqs: [UInt64] = []
            var anchor: Anchor?
            while !deleted.isEmpty {
                let page = try engine.log.entries(after: anchor, limit: 1_024)
                for entry in page.entries where entry.operation == .save && entry.payload != nil {
                    if deleted.contains(entry.id) { seqs.append(entry.seq) }
                }
                anchor = page.next
                if !page.hasMore { break }
            }
            let purged = try await engine.log.purgePayloads(at: seqs)
            // The indices are rebuilt from the purged log, so that they
            // agree with any later replay (`anchorage audit verify`).
            if purged > 0 { try await engine.log.rebuildProjections() }
            return purged
        } catch {
            throw HKError.wrapping(error)
        }
    }
}
