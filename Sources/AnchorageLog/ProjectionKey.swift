/// What one projection hands to those that consume it, typed: the name of
/// the projection that publishes it, and the type it publishes. A producer
/// publishes, and a consumer reads, through the same key, so the compiler
/// checks that they agree.
///
/// ```swift
/// extension HealthIndex {
///     static let output = ProjectionOutputKey<IndexOutput>(producer: "healthkit-index")
/// }
/// context.publish(changes, for: HealthIndex.output)            // in the index's apply
/// let changes = context.output(of: HealthIndex.output)           // in the views' apply
/// ```
public struct ProjectionOutputKey<Output>: Sendable, Hashable {
    /// The name of the projection that publishes the output.
    public let producer: String

    /// The key of what the projection named `producer` publishes.
    public init(producer: String) {
        self.producer = producer
    }

    /// The key as ``Projection/consumes`` lists it.
    public var consumed: ConsumedOutput { ConsumedOutput(producer: producer) }
}

/// A projection's output that another consumes, as
/// ``Projection/consumes`` lists it: the log applies each batch to its
/// producer first.
public struct ConsumedOutput: Sendable, Hashable {
    /// The name of the projection that publishes it.
    public let producer: String
}

/// A projection's own work in progress across the batches of one
/// transaction, typed: the projection's name and the state's type.
///
/// ```swift
/// static let pending = ProjectionScratchKey<ViewBatch>(owner: "statistics-views")
/// try context.withScratch(Self.pending, ViewBatch()) { batch in … }
/// ```
public struct ProjectionScratchKey<State>: Sendable, Hashable {
    /// The name of the projection that keeps the state.
    public let owner: String

    /// The key of the scratch state the projection named `owner` keeps.
    public init(owner: String) {
        self.owner = owner
    }
}
