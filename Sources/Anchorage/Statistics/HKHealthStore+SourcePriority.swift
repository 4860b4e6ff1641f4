import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension HKHealthStore {
    /// Sets the order in which sources count when statistics merge a
    /// quantity type's samples (ST-22..27): an owner-only Anchorage
    /// extension standing in for the Health app's Data Sources screen.
    /// Recorded in the log, so it replicates and can be audited; the latest
    /// setting wins. Sources not listed rank below the listed ones, the
    /// newest first; samples entered by hand rank above all (ST-24).
    ///
    /// ```swift
    /// try await owner.setSourcePriority(["com.apple.health.watch", "com.apple.health.phone"],
    ///                                   for: HKQuantityType(.stepCount))
    /// ```
    ///
    /// - Throws: `errorAuthorizationDenied` for an app; `errorInvalidArgument`
    ///   for an empty or repeated bundle identifier, or more than 1,000.
    public func setSourcePriority(_ bundleIdentifiers: [String], for type: HKQuantityType) async throws {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, rule: "ST-27", "only the store's owner sets source priorities")
        }
        guard bundleIdentifiers.count <= SourcePriorityRecord.maximumSources else {
            throw HKError.invalid(
                "ST-27",
                "a priority list holds at most \(SourcePriorityRecord.maximumSources) sources, not \(bundleIdentifiers.count)"
            )
        }
        var seen = Set<String>()
        for bundle in bundleIdentifiers {
            guard !bundle.isEmpty, bundle.utf8.count <= 255 else {
                throw HKError.invalid("ST-27", "a bundle identifier must have 1 to 255 bytes")
            }
            guard seen.insert(bundle).inserted else {
                throw HKError.invalid("ST-27", "\(bundle) is listed twice")
            }
        }
        let engine = try await openEngine()
        let record = SourcePriorityRecord(type: type.kindCode, sources: bundleIdentifiers)
        do {
            try await engine.log.append([
                .save(id: .random(), kind: StoreKind.sourcePriority, payload: record.encoded())
            ])
        } catch {
            throw HKError.wrapping(error)
        }
    }

    /// The source order set for `type`, highest priority first; empty when
    /// none was set.
    public func sourcePriority(for type: HKQuantityType) throws -> [String] {
        let engine = try openEngine()
        return try engine.read { txn in
            try engine.views.ranking(of: EntryKind(rawValue: type.kindCode), in: txn).priority
        }
    }
}
