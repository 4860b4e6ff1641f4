import Synchronization

/// Waits (in real time, polling every millisecond, up to `timeout` seconds)
/// until `condition` holds: the code under test has reached a state it
/// shows, instead of a fixed sleep that passes vacuously when the machine
/// is slow. Throws ``WaitTimeout`` naming `what` when it does not.
///
/// ```swift
/// try await waitUntil("both permits taken") { limiter.permits.available == 0 }
/// ```
public func waitUntil(
    _ what: @autoclosure () -> String,
    timeout: Double = 60,
    _ condition: () -> Bool
) async throws {
    let start = ContinuousClock.now
    while !condition() {
        guard ContinuousClock.now - start < .seconds(timeout) else {
            throw WaitTimeout(description: "not \(what()) after \(timeout) s")
        }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// Waits, as ``waitUntil(_:timeout:_:)`` does, for a condition that has to
/// ask asynchronously (a request to a server, an actor's state), polling
/// every 20 ms.
///
/// ```swift
/// try await waitUntil("the webhook has failed once") { try await failures(of: hook) > 0 }
/// ```
public func waitUntil(
    _ what: @autoclosure () -> String,
    timeout: Double = 60,
    _ condition: () async throws -> Bool
) async throws {
    let start = ContinuousClock.now
    while try await !condition() {
        guard ContinuousClock.now - start < .seconds(timeout) else {
            throw WaitTimeout(description: "not \(what()) after \(timeout) s")
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// A state a test waited for did not come.
public struct WaitTimeout: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Runs `body`, and throws ``WaitTimeout`` naming `what` if it has not
/// finished after `timeout` seconds (real time): a step that would hang
/// when the code under test is broken fails the test instead. The body
/// runs in a task of its own, left running if it never ends.
///
/// ```swift
/// try await finishes("the removal, once its holders stop") { await pool.remove(alice) }
/// ```
@discardableResult
public func finishes<R: Sendable>(
    _ what: String,
    timeout: Double = 60,
    _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
    let outcome = Outcome<R>()
    let work = Task {
        do {
            outcome.settle(.success(try await body()))
        } catch {
            outcome.settle(.failure(error))
        }
    }
    let timer = Task {
        try? await Task.sleep(for: .seconds(timeout))
        outcome.settle(.failure(WaitTimeout(description: "\(what) did not finish within \(timeout) s")))
    }
    let result = await outcome.value()
    timer.cancel()
    _ = work
    return try result.get()
}

/// The first result settled, for ``finishes(_:timeout:_:)``.
private final class Outcome<R: Sendable>: Sendable {
    private let state = Mutex<
        (result: Result<R, any Error>?, waiter: CheckedContinuation<Result<R, any Error>, Never>?)
    >(
        (nil, nil)
    )

    func settle(_ result: Result<R, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<R, any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    func value() async -> Result<R, any Error> {
        await withCheckedContinuation { continuation in
            let settled = state.withLock { state -> Result<R, any Error>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}

/// Suspends until the task is cancelled, then throws `CancellationError`:
/// a stand-in for a peer or handler that never answers, without a sleep
/// whose length a slow machine could reach.
///
/// ```swift
/// func identity(_ mine: PeerIdentity) async throws -> PeerIdentity { try await suspendUntilCancelled() }
/// ```
public func suspendUntilCancelled() async throws -> Never {
    let parked = Mutex<CheckedContinuation<Void, Never>?>(nil)
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            parked.withLock { $0 = continuation }
            if Task.isCancelled { parked.withLock { $0.take() }?.resume() }
        }
    } onCancel: {
        parked.withLock { $0.take() }?.resume()
    }
    throw CancellationError()
}
