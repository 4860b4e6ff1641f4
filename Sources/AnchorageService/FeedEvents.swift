import Anchorage
import AnchorageLog

/// What a followed feed waits for, as one sequence: a commit (with the
/// position of its last entry) or a heartbeat's tick. It ends when `stop`
/// yields or the commits end; the task feeding it is cancelled when the
/// sequence is dropped.
///
/// ```swift
/// var events = FeedEvents(batches: batches, heartbeat: .seconds(15), clock: clock, stop: nil)
/// while let event = await events.next() { … }
/// ```
struct FeedEvents {
    enum Event: Sendable {
        case commit(UInt64)
        case tick
    }

    /// Cancels the feeding task when the last copy goes.
    private final class Feeder: Sendable {
        let task: Task<Void, Never>
        init(_ task: Task<Void, Never>) { self.task = task }
        deinit { task.cancel() }
    }

    private var iterator: AsyncStream<Event>.Iterator
    private let feeder: Feeder

    init(batches: AsyncStream<CommittedBatch>, heartbeat: Duration?, clock: StoreClock, stop: AsyncStream<Void>?) {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await batch in batches { continuation.yield(.commit(batch.last.seq)) }
                }
                if let heartbeat {
                    group.addTask {
                        // Every interval from when the backlog was read.
                        while (try? await clock.sleep(heartbeat)) != nil { continuation.yield(.tick) }
                    }
                }
                if let stop {
                    group.addTask {
                        for await _ in stop { break }
                    }
                }
                // The first to end (commits over, stop, cancelled) ends them all.
                await group.next()
                group.cancelAll()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        iterator = stream.makeAsyncIterator()
        feeder = Feeder(task)
    }

    mutating func next() async -> Event? {
        await iterator.next()
    }
}
