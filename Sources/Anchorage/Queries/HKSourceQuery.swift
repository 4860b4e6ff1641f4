public import Foundation

/// The sources that saved samples of a type matching a predicate (SRC-1);
/// an app that may not read the type sees at most itself (SRC-2).
///
/// ```swift
/// let query = HKSourceQuery(sampleType: steps, samplePredicate: nil) { _, sources, error in
///     print(sources?.map(\.name) ?? [])
/// }
/// store.execute(query)
/// ```
public final class HKSourceQuery: HKQuery, @unchecked Sendable {
    /// The type whose sources are listed.
    public let sampleType: HKSampleType
    /// The predicate the sources' samples must match, if any.
    public let samplePredicate: NSPredicate?
    private let completionHandler: @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void

    /// Creates a source query.
    public init(
        sampleType: HKSampleType,
        samplePredicate: NSPredicate?,
        completionHandler: @escaping @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void
    ) {
        self.sampleType = sampleType
        self.samplePredicate = samplePredicate
        self.completionHandler = completionHandler
    }

    override func fail(_ error: HKError) {
        completionHandler(self, nil, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        do {
            let typed = try QueryInputs.predicate(samplePredicate, for: sampleType)
            let sources = try engine.read { txn in
                var session = ReadSession(caller: store.caller)
                return try engine.sources(of: sampleType, predicate: typed, in: txn, session: &session)
            }
            deliver { completionHandler(self, sources, nil) }
        } catch {
            deliver { fail(HKError.wrapping(error)) }
        }
    }
}
