import AnchorageLog
public import AnchorageModel
public import Foundation

/// What an observer query's handler calls when it has processed an update
/// (OBS-2). With background delivery enabled for the type, an update whose
/// handler has not called it is delivered again (see
/// ``HKHealthStore/enableBackgroundDelivery(for:frequency:withCompletion:)``).
public typealias HKObserverQueryCompletionHandler = @Sendable () -> Void

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
    /// The query descriptors of a query over several types, else `nil`.
    public let queryDescriptors: [HKQueryDescriptor]?
    private let updateHandler:
        (@Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void)?
    /// The handler of a query over several types: it also gets the types
    /// whose samples changed (`nil` on the first call and with an error).
    private let descriptorsHandler:
        (
            @Sendable (HKObserverQuery, Set<HKSampleType>?, @escaping HKObserverQueryCompletionHandler, (any Error)?) ->
                Void
        )?

    /// Creates an observer query.
    public init(
        sampleType: HKSampleType,
        predicate: NSPredicate?,
        updateHandler:
            @escaping @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?)
            -> Void
    ) {
        self.queryDescriptors = nil
        self.updateHandler = updateHandler
        self.descriptorsHandler = nil
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// Creates an observer query of the samples matching any descriptor.
    ///
    /// ```swift
    /// let query = HKObserverQuery(queryDescriptors: [steps, heart]) { _, types, done, _ in
    ///     refresh(types ?? [])
    ///     done()
    /// }
    /// ```
    public init(
        queryDescriptors: [HKQueryDescriptor],
        updateHandler:
            @escaping @Sendable (
                HKObserverQuery, Set<HKSampleType>?, @escaping HKObserverQueryCompletionHandler, (any Error)?
            ) -> Void
    ) {
        self.queryDescriptors = queryDescriptors
        self.updateHandler = nil
        self.descriptorsHandler = updateHandler
        super.init(objectType: nil, predicate: nil)
    }

    override func fail(_ error: HKError) {
        call(types: nil, error: error)
    }

    /// Calls whichever handler the query has.
    private func call(types: Set<HKSampleType>?, error: (any Error)?, completion: @escaping @Sendable () -> Void = {}) {
        if let updateHandler {
            updateHandler(self, completion, error)
        } else {
            descriptorsHandler?(self, types, completion, error)
        }
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        var background: ObserverDelivery?
        do {
            let targets = try HKQueryDescriptor.targets(queryDescriptors, or: sampleType, predicate: predicate)
            let batches = engine.log.committedBatches()
            let registrations = try engine.deliveryRegistrations(of: store.caller, for: targets.map(\.type))
            let (start, waiting) = try engine.read { txn in
                // Fails now, not later, when the app may not read a type (AUTH-7).
                var session = ReadSession(caller: store.caller)
                for target in targets where !(target.type is HKCorrelationType) {
                    _ = try engine.scope(for: target.type, in: txn, session: &session)
                }
                let start = try engine.head(in: txn)
                // Changes of registered types the app has not acknowledged:
                // made while it was not running (background delivery).
                var waiting = false
                for target in targets {
                    guard let registration = registrations[target.type.identifier] else { continue }
                    let acknowledged = registration.acknowledged(in: engine.log)
                    guard acknowledged < start, !waiting else { continue }
                    waiting = try !engine.anchoredChanges(
                        of: target.type,
                        predicate: target.predicate,
                        after: acknowledged,
                        through: start,
                        limit: 1,
                        in: txn,
                        session: &session
                    ).isEmpty
                }
                return (start, waiting)
            }
            if !registrations.isEmpty {
                background = ObserverDelivery(
                    engine: engine,
                    caller: store.caller,
                    registrations: registrations,
                    types: targets.map(\.type)
                ) { [weak self] completion, types in
                    self?.deliver { self?.call(types: types, error: nil, completion: completion) }
                }
            }
            if let background {
                if waiting || engine.configuration.observerQueriesFireOnStart {
                    background.changed(through: start, types: nil)
                }
            } else if engine.configuration.observerQueriesFireOnStart {
                deliver { call(types: nil, error: nil) }
            }
            try await engine.follow(
                batches,
                from: start,
                targets: targets,
                caller: store.caller,
                lifecycle: lifecycle
            ) { changes, anchor in
                let changed = Set(zip(targets, changes).filter { !$0.1.isEmpty }.map(\.0.type))
                if let background {
                    background.changed(through: anchor.value, types: changed)
                } else {
                    deliver { call(types: changed, error: nil) }
                }
            }
        } catch {
            deliver { fail(HKError.wrapping(error)) }
        }
        background?.stop()
    }
}
