import AnchorageLog
public import Foundation

/// Tells an app that samples of a type were saved or deleted, without the
/// data (OBS-1); follow up with an anchored query.
///
/// ```swift
/// let query = HKObserverQuery(sampleType: steps, predicate: nil) { _, completionHandler, error in
///     refreshWithAnchoredQuery()
///     completionHandler()
/// }
/// store.execute(query)
/// ```
///
/// The handler runs once when the query starts (OBS-4; see
/// ``HKHealthStore/Configuration/observerQueriesFireOnStart``), then once for
/// each committed batch that saved or deleted matching samples, until the
/// query is stopped.
public final class HKObserverQuery: HKQuery, @unchecked Sendable {
    /// What the handler calls when it has processed an update (OBS-2).
    public typealias HKObserverQueryCompletionHandler = @Sendable () -> Void
    /// The handler's type.
    public typealias UpdateHandler =
        @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void

    /// The observed type.
    public let sampleType: HKSampleType
    /// The predicate changes must match, if any.
    public let predicate: NSPredicate?
    private let updateHandler: UpdateHandler

    /// Creates an observer query.
    public init(sampleType: HKSampleType, predicate: NSPredicate?, updateHandler: @escaping UpdateHandler) {
        self.sampleType = sampleType
        self.predicate = predicate
        self.updateHandler = updateHandler
    }

    override func fail(_ error: HKError) {
        updateHandler(self, {}, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        do {
            let typed = try QueryInputs.predicate(predicate, for: sampleType)
            let batches = engine.log.committedBatches()
            let start = try engine.read { txn in
                // Fails now, not later, when the app may not read the type (AUTH-7).
                var session = ReadSession(caller: store.caller)
                if !(sampleType is HKCorrelationType) {
                    _ = try engine.scope(for: sampleType, in: txn, session: &session)
                }
                return try engine.head(in: txn)
            }
            if engine.configuration.observerQueriesFireOnStart {
                deliver { updateHandler(self, {}, nil) }
            }
            try await engine.follow(
                batches,
                from: start,
                type: sampleType,
                predicate: typed,
                caller: store.caller,
                lifecycle: lifecycle
            ) { _, _ in
                deliver { updateHandler(self, {}, nil) }
            }
        } catch {
            deliver { fail(HKError.wrapping(error)) }
        }
    }
}
