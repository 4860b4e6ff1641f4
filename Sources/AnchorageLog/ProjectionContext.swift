/// What the projections of one write transaction share. The log makes a
/// new one for every attempt at a transaction and drops it afterwards, so
/// an attempt that is abandoned (a group commit running again without a
/// request that failed) leaves nothing behind in any projection.
///
/// It carries three things, and projections keep no other state between
/// calls:
///
/// - ``input``: what the precondition of the append being applied returned
///   (`nil` for replicated entries and replays);
/// - outputs: what a projection hands, for the batch being applied, to the
///   projections that name it in ``Projection/consumes``;
/// - scratch: a projection's own work in progress across the batches of the
///   transaction, until its ``Projection/finish(context:in:)``.
///
/// Each goes through a typed key (``ProjectionOutputKey``,
/// ``ProjectionScratchKey``), so producer and consumer agree on its type.
///
/// ```swift
/// func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
///     let changed = try index(entries, in: txn)
///     context.publish(changed, for: Self.output)            // for the projections that consume it
/// }
/// ```
public final class ProjectionContext {
    /// What the precondition of the append being applied returned.
    public private(set) var input: (any Sendable)?
    private var outputs: [String: Any] = [:]
    private var scratch: [String: Any] = [:]

    init() {}

    /// Starts a batch: the request's input, no outputs yet.
    func beginBatch(input: (any Sendable)?) {
        self.input = input
        outputs.removeAll(keepingCapacity: true)
    }

    /// Hands `output` to the projections that consume `key`, for the batch
    /// being applied.
    public func publish<Output>(_ output: Output, for key: ProjectionOutputKey<Output>) {
        outputs[key.producer] = output
    }

    /// What the producer of `key` published for the batch being applied;
    /// `nil` when it published nothing. The log never runs a consumer
    /// without its producers: a stale consumer is rebuilt with them.
    public func output<Output>(of key: ProjectionOutputKey<Output>) -> Output? {
        guard let published = outputs[key.producer] else { return nil }
        guard let output = published as? Output else {
            // Two keys of one producer with different types: a programming error, not an absent output.
            preconditionFailure("\(key.producer) published \(type(of: published)), read as \(Output.self)")
        }
        return output
    }

    /// Runs `body` on the scratch state of `key`, kept for the rest of the
    /// transaction, made with `initial` the first time.
    public func withScratch<State, Result>(
        _ key: ProjectionScratchKey<State>,
        _ initial: @autoclosure () -> State,
        _ body: (inout State) throws -> Result
    ) rethrows -> Result {
        // Taken out while in use, so that it is not copied on write.
        let kept = scratch.removeValue(forKey: key.owner)
        if let kept, !(kept is State) {
            preconditionFailure("\(key.owner)'s scratch is \(type(of: kept)), used as \(State.self)")
        }
        var state = (kept as? State) ?? initial()
        defer { scratch[key.owner] = state }
        return try body(&state)
    }
}
