import AnchorageLog
import AnchorageModel
import Crypto
import LMDB

extension HKHealthStore {
    /// One hex line summarising the store's visible state: the visible
    /// objects (by id and the digest of the save that is shown), the
    /// tombstones, the grants, the source priorities, the characteristics,
    /// the workout effort relations and each day's activity summary. It does not depend on the order entries arrived in,
    /// so peers that converged print the same digest, and any visible change
    /// changes it. Purging a payload keeps it (the entry's digest stays).
    /// Owner only. (An Anchorage addition.)
    ///
    /// ```swift
    /// let digest = try store.stateDigest()    // "9f86d081884c7d65…"
    /// ```
    ///
    /// - Throws: `errorAuthorizationDenied` for an app's handle.
    public func stateDigest() throws -> String {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, "only the store's owner reads the state digest")
        }
        let engine = try openEngine()
        return try engine.read { txn in try engine.stateDigest(in: txn) }
    }
}
