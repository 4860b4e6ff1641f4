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
/// ```swift
/// func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
///     let changed = try index(entries, in: txn)
///     context.publish(changed, from: name)                  // for the projections that consume this one
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

    /// Hands `output` to the projections that consume `projection`, for the
    /// batch being applied.
    public func publish(_ output: some Any, from projection: String) {
        outputs[projection] = output
    }

    /// What `projection` published for the batch being applied; `nil` when
    /// it did not run on it (a rebuild of the consumer alone).
    public func output<Output>(of projection: String, as _: Output.Type = Output.self) -> Output? {
        outputs[projection] as? Output
    }

    /// Runs `body` on the scratch state `projection` keeps for the rest of
    /// the transaction, made with `initial` the first time.
    public func withScratch<State, Result>(
        of projection: String,
        _ initial: @autoclosure () -> State,
        _ body: (inout State) throws -> Result
    ) rethrows -> Result {
        // Taken out while in use, so that it is not copied on write.
        var state = scratch.removeValue(forKey: projection).flatMap { $0 as? State } ?? initial()
        defer { scratch[projection] = state }
        return try body(&state)
    }
}
