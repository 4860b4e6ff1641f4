public import AnchorageModel
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
    let queriedType: HKSampleType
    private let completionHandler: @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void

    /// Creates a source query.
    public init(
        sampleType: HKSampleType,
        samplePredicate: NSPredicate?,
        completionHandler: @escaping @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void
    ) {
        self.queriedType = sampleType
        self.completionHandler = completionHandler
        super.init(objectType: sampleType, predicate: samplePredicate)
    }

    override func fail(_ error: HKError) {
        completionHandler(self, nil, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        answer(self, completionHandler) {
            let typed = try QueryInputs.predicate(predicate, for: queriedType)
            return try engine.read(as: store.caller) { txn, session in
                try engine.sources(of: queriedType, predicate: typed, in: txn, session: &session)
            }
        }
    }
}

/// The async form of a source query: the apps and devices that saved
/// samples matching a predicate.
///
/// ```swift
/// let sources = try await HKSourceQueryDescriptor(predicate: .quantitySample(type: steps)).result(for: store)
/// ```
public struct HKSourceQueryDescriptor<Sample: HKSample>: Sendable, HKAsyncQuery {
    /// The samples whose sources are listed.
    public var predicate: HKSamplePredicate<Sample>

    /// Creates a descriptor.
    public init(predicate: HKSamplePredicate<Sample>) {
        self.predicate = predicate
    }

    /// The sources, by name and then bundle identifier.
    ///
    /// - Throws: ``HKError`` for a bad predicate, missing read authorization
    ///   or a store that cannot be read.
    public func result(for healthStore: HKHealthStore) async throws -> [HKSource] {
        let engine = try await healthStore.openEngine()
        let typed = try predicate.typed.get()
        let sources = try engine.read(as: healthStore.caller) { txn, session in
            try engine.sources(of: predicate.sampleType, predicate: typed, in: txn, session: &session)
        }
        return sources.sorted { ($0.name, $0.bundleIdentifier) < ($1.name, $1.bundleIdentifier) }
    }
}
