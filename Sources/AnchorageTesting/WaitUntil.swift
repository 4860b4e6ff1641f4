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
