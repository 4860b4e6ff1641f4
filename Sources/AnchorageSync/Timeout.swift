import AnchorageCore

/// Runs `operation`, failing with ``SyncError/Code/timedOut`` if it has not
/// finished after `timeout` on `clock`; the operation is cancelled then.
func withTimeout<R: Sendable>(
    _ timeout: Duration,
    on clock: StoreClock = .continuous,
    _ what: @autoclosure () -> String,
    _ operation: @escaping @Sendable () async throws -> R
) async throws -> R {
    let description = what()
    return try await withThrowingTaskGroup(of: R.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(timeout)
            throw SyncError(.timedOut, "the peer did not answer \(description) within \(timeout)")
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else {
            throw SyncError(.timedOut, "the peer did not answer \(description)")
        }
        return first
    }
}
