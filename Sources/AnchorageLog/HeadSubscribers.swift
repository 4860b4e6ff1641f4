import Synchronization

/// The subscribers to head changes and to committed batches.
///
/// Head subscribers get an `AsyncStream` that keeps only the newest head, so
/// a slow subscriber skips intermediate heads and never holds up the writer:
/// a doorbell, not a queue. Batch subscribers get every committed batch's
/// range (two anchors, not the entries), in commit order; they read the
/// entries themselves from the log.
final class HeadSubscribers: Sendable {
    /// One head subscriber: its stream's continuation, and the highest
    /// position it was given. A head no newer than that is never given
    /// after it, whichever yield comes last: the first head (read when it
    /// subscribed) and a commit's can race — the writer resumes its callers
    /// before it rings, so a subscriber that subscribes right after an
    /// append read that commit's head and then hears it rung — and the
    /// stream keeps only the newest it was given, so a repeat would stand
    /// in for the next commit's head.
    private final class HeadSubscriber: Sendable {
        let continuation: AsyncStream<Anchor>.Continuation
        private let given = Mutex<UInt64?>(nil)

        init(_ continuation: AsyncStream<Anchor>.Continuation) {
            self.continuation = continuation
        }

        func yield(_ head: Anchor) {
            given.withLock { given in
                if let last = given, head.seq <= last { return }
                given = head.seq
                continuation.yield(head)
            }
        }
    }

    private struct State {
        var nextID = 0
        var heads: [Int: HeadSubscriber] = [:]
        var batches: [Int: BatchSubscriber] = [:]
        var isFinished = false
    }

    private let state = Mutex(State())

    /// A new stream that starts with the head `current` reads once the
    /// stream is registered: a commit between the read and the
    /// registration cannot be missed, since the read comes after.
    func subscribe(current: () -> Anchor) -> AsyncStream<Anchor> {
        let (stream, continuation) = AsyncStream.makeStream(of: Anchor.self, bufferingPolicy: .bufferingNewest(1))
        let subscriber = HeadSubscriber(continuation)
        register(continuation) { $0.heads[$1] = subscriber }
        subscriber.yield(current())
        return stream
    }

    /// A batch stream and the head it started after.
    private struct BatchSubscriber {
        var after: UInt64
        var continuation: AsyncStream<CommittedBatch>.Continuation
    }

    /// A new stream of the batches committed after the head `current`
    /// reads, read as the stream is registered. A batch is published after
    /// the callers that appended it resume, so one of them may subscribe
    /// before its own batch is published: that batch ends at or before the
    /// head it read, and is not announced.
    func subscribeToBatches(current: @escaping () -> UInt64) -> AsyncStream<CommittedBatch> {
        let (stream, continuation) = AsyncStream.makeStream(of: CommittedBatch.self, bufferingPolicy: .unbounded)
        register(continuation) { $0.batches[$1] = BatchSubscriber(after: current(), continuation: continuation) }
        return stream
    }

    /// Adds `continuation` to a subscriber table with `insert` until its
    /// stream ends; finishes it at once when the log is already closed.
    private func register<Element>(
        _ continuation: AsyncStream<Element>.Continuation,
        insert: (inout State, Int) -> Void
    ) {
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            insert(&state, id)
            return id
        }
        guard let id else {
            continuation.finish()
            return
        }
        continuation.onTermination = { [weak self] _ in
            // Ids are unique across both tables.
            self?.state.withLock { state in
                state.heads.removeValue(forKey: id)
                state.batches.removeValue(forKey: id)
            }
        }
    }

    /// Tells every subscriber the new head and the batches that led to it.
    func publish(_ head: Anchor, batches: [CommittedBatch]) {
        let (heads, batchSubscribers) = state.withLock { (Array($0.heads.values), Array($0.batches.values)) }
        for subscriber in batchSubscribers {
            for batch in batches where batch.last.seq > subscriber.after { subscriber.continuation.yield(batch) }
        }
        for subscriber in heads { subscriber.yield(head) }
    }

    /// Ends every stream.
    func finish() {
        let (heads, batches) = state.withLock { state in
            state.isFinished = true
            let all = (Array(state.heads.values), Array(state.batches.values))
            state.heads = [:]
            state.batches = [:]
            return all
        }
        for subscriber in heads { subscriber.continuation.finish() }
        for subscriber in batches { subscriber.continuation.finish() }
    }
}
