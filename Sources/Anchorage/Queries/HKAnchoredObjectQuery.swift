import AnchorageLog
public import AnchorageModel
public import Foundation
import Synchronization

/// The samples saved and objects deleted since an anchor (AQ-1..16), once
/// or continuously.
///
/// ```swift
/// var anchor: HKQueryAnchor? = nil
/// let query = HKAnchoredObjectQuery(type: steps, predicate: nil, anchor: anchor, limit: HKObjectQueryNoLimit) {
///     _, added, deleted, newAnchor, error in
///     anchor = newAnchor
/// }
/// query.updateHandler = { _, added, deleted, newAnchor, error in … }   // keep running
/// store.execute(query)
/// ```
///
/// Results come in anchor (insertion) order (AQ-8). `limit` counts samples
/// and deletions together, and `newAnchor` resumes right after the last
/// item of a full page (AQ-9); otherwise it is the store's position at the
/// snapshot (AQ-10). With an ``updateHandler`` the query keeps running and
/// delivers, for each committed batch that touched it, exactly the changes
/// since its last delivery: no gap, no duplicate (AQ-15, AQ-16).
public final class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
    /// The handler of the iOS 9 form: added samples, deleted objects, the
    /// new anchor, or an error (AQ-5).
    public typealias ResultsHandler =
        @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void

    /// The query descriptors of a query over several types, else `nil`.
    public let queryDescriptors: [HKQueryDescriptor]?
    /// The anchor the query starts after; `nil` for the beginning.
    public let anchor: HKQueryAnchor?
    /// The most items (samples plus deletions) delivered by the first call.
    public let limit: Int
    private let resultsHandler: ResultsHandler?
    private let legacyHandler: (@Sendable (HKAnchoredObjectQuery, [HKSample]?, Int, (any Error)?) -> Void)?
    private let update = Mutex<ResultsHandler?>(nil)

    /// Called with each later change while the query runs (AQ-15). Set it
    /// before executing; changes after execution are ignored (AQ-16). A
    /// query with an update handler must have no limit.
    public var updateHandler: ResultsHandler? {
        get { update.withLock { $0 } }
        set {
            guard !lifecycle.hasExecuted else { return }
            update.withLock { $0 = newValue }
        }
    }

    /// Creates the iOS 9 form (AQ-5).
    public convenience init(
        type: HKSampleType,
        predicate: NSPredicate?,
        anchor: HKQueryAnchor?,
        limit: Int,
        resultsHandler handler: @escaping ResultsHandler
    ) {
        self.init(type, predicate, nil, anchor: anchor, limit: limit, handler: handler, legacy: nil)
    }

    /// Creates a query of the samples and deletions matching any of the
    /// descriptors, in anchor order; `limit` counts them all together.
    public convenience init(
        queryDescriptors: [HKQueryDescriptor],
        anchor: HKQueryAnchor?,
        limit: Int,
        resultsHandler handler: @escaping ResultsHandler
    ) {
        self.init(nil, nil, queryDescriptors, anchor: anchor, limit: limit, handler: handler, legacy: nil)
    }

    /// Creates the iOS 8 form with an integer anchor: results and the new
    /// integer anchor, no deletions (AQ-1..3).
    @available(*, deprecated, message: "use init(type:predicate:anchor:limit:resultsHandler:)")
    public convenience init(
        type: HKSampleType,
        predicate: NSPredicate?,
        anchor: Int,
        limit: Int,
        completionHandler: @escaping @Sendable (HKAnchoredObjectQuery, [HKSample]?, Int, (any Error)?) -> Void
    ) {
        self.init(
            type,
            predicate,
            nil,
            anchor: HKQueryAnchor(fromValue: anchor),
            limit: limit,
            handler: nil,
            legacy: completionHandler
        )
    }

    /// One type and predicate, or several descriptors; one of the handlers.
    private init(
        _ type: HKSampleType?,
        _ predicate: NSPredicate?,
        _ descriptors: [HKQueryDescriptor]?,
        anchor: HKQueryAnchor?,
        limit: Int,
        handler: ResultsHandler?,
        legacy: (@Sendable (HKAnchoredObjectQuery, [HKSample]?, Int, (any Error)?) -> Void)?
    ) {
        self.queryDescriptors = descriptors
        self.anchor = anchor
        self.limit = limit
        self.resultsHandler = handler
        self.legacyHandler = legacy
        super.init(objectType: type, predicate: predicate)
    }

    override func fail(_ error: HKError) {
        if let legacyHandler {
            legacyHandler(self, nil, anchor?.integerValue ?? 0, error)
        } else {
            resultsHandler?(self, nil, nil, nil, error)
        }
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        let updateHandler = update.withLock { $0 }
        do {
            let targets = try HKQueryDescriptor.targets(queryDescriptors, or: sampleType, predicate: predicate)
            let limit = try QueryInputs.limit(limit)
            if updateHandler != nil && limit != nil {
                throw HKError(
                    .errorInvalidArgument,
                    rule: "AQ-16",
                    "an anchored query with an update handler must have no limit"
                )
            }
            // Subscribe before the snapshot, so no batch falls between them.
            let batches = updateHandler == nil ? nil : engine.log.committedBatches()
            let (start, changes, upper) = try engine.read { txn in
                let upper = try engine.head(in: txn)
                let start = try anchor?.position(in: engine, head: upper) ?? 0
                var session = ReadSession(caller: store.caller)
                let changes = try engine.mergedChanges(
                    of: targets.map { ($0.type, $0.predicate) },
                    activitySummaries: false,
                    after: start,
                    through: upper,
                    limit: limit,
                    in: txn,
                    session: &session
                )
                return (start, changes, upper)
            }
            // An integer anchor beyond the store's position is echoed back (AQ-4, AQ-11).
            let newAnchor = start > upper ? anchor! : engine.queryAnchor(changes.last)
            deliver {
                if let legacyHandler {
                    legacyHandler(self, changes.added, newAnchor.integerValue, nil)
                } else {
                    resultsHandler?(self, changes.added, changes.deleted, newAnchor, nil)
                }
            }
            guard let updateHandler, let batches else { return }
            try await engine.follow(
                batches,
                from: max(start, upper),
                targets: targets,
                caller: store.caller,
                lifecycle: lifecycle
            ) { changes, anchor in
                // Several targets' changes, merged back into anchor order.
                let added = changes.flatMap { zip($0.sampleSeqs, $0.samples) }.sorted { $0.0 < $1.0 }.map(\.1)
                let deleted = changes.flatMap { zip($0.deletedSeqs, $0.deleted) }.sorted { $0.0 < $1.0 }.map(\.1)
                deliver { updateHandler(self, added, deleted, anchor, nil) }
            }
        } catch {
            let error = HKError.wrapping(error)
            if lifecycle.hasDelivered, let updateHandler {
                deliver { updateHandler(self, nil, nil, nil, error) }
            } else {
                deliver { fail(error) }
            }
        }
    }
}
