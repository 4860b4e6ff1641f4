public import Testing

/// A trait for suites and tests that start child processes (nodes, etcd
/// members, fleets): each test runs holding `weight` permits of
/// ``ProcessBudget/shared``, so the machine never runs more such tests at
/// once than it has cores for.
///
/// ```swift
/// @Suite("Fleet: faults", .serialized, .startsProcesses(weight: 2))
/// struct FleetFailoverTests { … }
/// ```
public struct StartsProcessesTrait: TestCaseScoping {
    /// The permits each test holds: 1 for a node or a command, more for a
    /// cluster (capped at the budget's capacity).
    public let weight: Int

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await ProcessBudget.shared.withPermits(weight) { try await function() }
    }
}

extension Trait where Self == StartsProcessesTrait {
    /// Each test holds `weight` of the machine's process permits while it
    /// runs (see ``ProcessBudget``).
    public static func startsProcesses(weight: Int = 1) -> Self {
        StartsProcessesTrait(weight: weight)
    }
}
