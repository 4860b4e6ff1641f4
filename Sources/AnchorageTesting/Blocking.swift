import Foundation

/// Runs `body`, which blocks (waits for a process, a socket, a file lock),
/// on a thread of its own and waits for it without holding a thread of
/// Swift's cooperative pool. That pool has one thread per core — two on
/// the machines the tests run on — so two tests blocking in it at once
/// would stall every other test: their timers, lease renewals and live
/// waits would not run for as long as the blocking lasts.
///
/// ```swift
/// let (status, output) = try await runBlocking { try ChildProcess.run(binary, ["audit", "verify"]) }
/// ```
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// ``runBlocking(_:)`` for a body that cannot throw.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
