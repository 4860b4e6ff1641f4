import Synchronization

/// The subscribers to head changes. Each gets an `AsyncStream` that keeps
/// only the newest head, so a slow subscriber skips intermediate heads and
/// never holds up the writer: a doorbell, not a queue. Subscribers then read
/// the entries from their own anchor.
final class HeadSubscribers: Sendable {
    private struct State {
        var nextID = 0
        var continuations: [Int: AsyncStream<Anchor>.Continuation] = [:]
        var isFinished = false
    }

    private let state = Mutex(State())

    /// A new stream that starts with `current`.
    func subscribe(current: Anchor) -> AsyncStream<Anchor> {
        let (stream, continuation) = AsyncStream.makeStream(of: Anchor.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.continuations[id] = continuation
            return id
        }
        continuation.yield(current)
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Tells every subscriber the new head.
    func publish(_ head: Anchor) {
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(head) }
    }

    /// Ends every stream.
    func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            let all = Array(state.continuations.values)
            state.continuations = [:]
            return all
        }
        for continuation in continuations { continuation.finish() }
    }
}
