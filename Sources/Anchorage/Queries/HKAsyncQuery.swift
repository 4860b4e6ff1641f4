import AnchorageModel

/// A query descriptor that runs once and returns its result.
///
/// ```swift
/// func latest<Q: HKAsyncQuery>(_ query: Q, in store: HKHealthStore) async throws -> Q.Output {
///     try await query.result(for: store)
/// }
/// ```
public protocol HKAsyncQuery {
    associatedtype Output
    /// Runs the query once.
    func result(for healthStore: HKHealthStore) async throws -> Output
}

/// A query descriptor that keeps running and delivers its results as an
/// asynchronous sequence, until the consuming task is cancelled.
///
/// ```swift
/// for try await update in descriptor.results(for: store) { … }
/// ```
public protocol HKAsyncSequenceQuery {
    associatedtype Sequence: AsyncSequence
    /// Starts the query.
    func results(for healthStore: HKHealthStore) -> Sequence
}

/// The results of a long-running query descriptor: each descriptor's
/// `Results` is this sequence of its own `Result`.
///
/// ```swift
/// let results: HKAnchoredObjectQueryDescriptor<HKQuantitySample>.Results = descriptor.results(for: store)
/// for try await page in results { … }
/// ```
public struct QueryResultSequence<Element: Sendable>: AsyncSequence, Sendable {
    let stream: AsyncThrowingStream<Element, any Error>

    init(_ stream: AsyncThrowingStream<Element, any Error>) {
        self.stream = stream
    }

    /// Iterates over the query's results.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.Iterator

        /// The next result; `nil` once the query has stopped.
        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator())
    }
}
