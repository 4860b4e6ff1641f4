import AnchorageModel
import Foundation

/// The asynchronous sequences of the series query descriptors: the series
/// is read from the store once (one short read transaction), then its
/// points are made from the stored bytes 1,024 at a time, the task
/// yielding between batches; cancelling the consumer's task stops it.
enum SeriesStream {
    /// The points `point(i)` for `i` in the range `load` returns.
    static func make<Element: Sendable>(
        _ load: @escaping @Sendable () throws(HKError) -> (Range<Int>, @Sendable (Int) -> Element)
    ) -> QueryResultSequence<Element> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Element.self,
            bufferingPolicy: .unbounded
        )
        let task = Task {
            do {
                let (range, point) = try load()
                var index = range.lowerBound
                while index < range.upperBound {
                    try Task.checkCancellation()
                    let end = min(index + 1_024, range.upperBound)
                    for item in index..<end { continuation.yield(point(item)) }
                    index = end
                    await Task.yield()
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return QueryResultSequence(stream)
    }
}
