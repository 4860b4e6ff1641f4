import AnchorageModel

/// A stream fed by `body` on a task of its own: the async sequences of the
/// long-running descriptors (`results(for:)`). The stream ends when `body`
/// returns, when the consumer stops iterating (the task is cancelled), or
/// with `body`'s error as an ``HKError``.
func followingStream<Element: Sendable>(
    of _: Element.Type,
    _ body: @escaping @Sendable (AsyncThrowingStream<Element, any Error>.Continuation) async throws -> Void
) -> AsyncThrowingStream<Element, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
    let task = Task {
        do {
            try await body(continuation)
            continuation.finish()
        } catch is CancellationError {
            continuation.finish()
        } catch {
            continuation.finish(throwing: HKError.wrapping(error))
        }
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
}
