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
    /// Reads what the sequence delivers, once: the positions and how to
    /// make the element at each.
    typealias Load = @Sendable () throws -> (Range<Int>, @Sendable (Int) -> Element)

    /// Elements a producer task yields, or `nil` for a pulled sequence.
    let stream: AsyncThrowingStream<Element, any Error>?
    /// What a pulled sequence reads at its first `next()`: elements are
    /// then made one at a time as the consumer asks, nothing is buffered
    /// ahead of it, whatever the sequence's length.
    let load: Load?

    init(_ stream: AsyncThrowingStream<Element, any Error>) {
        self.stream = stream
        self.load = nil
    }

    /// A sequence that calls `load` at the first `next()`, then makes each
    /// element when it is asked for.
    init(pulling load: @escaping Load) {
        self.stream = nil
        self.load = load
    }

    /// Iterates over the query's results.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.Iterator?
        var load: Load?
        var loaded: (range: Range<Int>, element: @Sendable (Int) -> Element)?
        var index = 0

        /// The next result; `nil` once the query has stopped.
        public mutating func next() async throws -> Element? {
            if var stream = base {
                defer { base = stream }
                return try await stream.next()
            }
            if loaded == nil, let load {
                try Task.checkCancellation()
                let (range, element) = try load()
                loaded = (range, element)
                index = range.lowerBound
                self.load = nil
            }
            guard let (range, element) = loaded, index < range.upperBound else { return nil }
            if (index - range.lowerBound) % 1_024 == 1_023 { try Task.checkCancellation() }
            defer { index += 1 }
            return element(index)
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream?.makeAsyncIterator(), load: load)
    }
}
