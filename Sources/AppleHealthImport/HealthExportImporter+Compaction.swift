import AnchorageLog
public import Foundation

extension HealthExportImporter {
    /// The share of a store file's pages that must be free for
    /// ``compactStore(at:)`` to rewrite the store.
    public static let compactionThreshold = 0.1

    /// After an import, with the store closed: rewrites the store's files
    /// with only their live pages when a tenth or more of either is free
    /// (and at least 256 KiB); returns whether it did. Rewriting costs a
    /// sequential copy of the files, a small part of what the import cost.
    ///
    /// An import leaves the pages its last commits freed in the files (LMDB
    /// reuses a commit's freed pages two commits later, and files never
    /// shrink), and many of them: imported objects' identifiers are derived
    /// from their records, so they are spread over the objects' index and
    /// each commit rewrites most of its pages. On ten years of day-long
    /// records that was a quarter of the projections file; a small import
    /// into a large store leaves too little to be worth a copy. `anchorage
    /// import` calls this when it is done, as `EventLog.compact(at:)` does
    /// after a purge; the store must not be open anywhere.
    ///
    /// ```swift
    /// let store = HKHealthStore(directory: directory)
    /// try await HealthExportImporter(store: store).importExport(at: export)
    /// await store.close()
    /// try HealthExportImporter.compactStore(at: directory)
    /// ```
    ///
    /// - Throws: `LogError` `.storeInUse` while the store is open (then
    ///   nothing changes; the import stands).
    @discardableResult
    public static func compactStore(at directory: URL) throws -> Bool {
        try EventLog.compact(at: directory, ifFreeAtLeast: compactionThreshold)
    }
}
