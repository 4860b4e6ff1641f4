import Foundation
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
        let asked = ContinuousClock.now
        try await ProcessBudget.shared.withPermits(weight) {
            Self.reportWait(since: asked, of: test)
            try await function()
        }
    }

    /// Under Scripts/test (which sets `ANCHORAGE_POOL_PROBE`), prints how
    /// long `test` waited for its permits, so that Scripts/test-timing can
    /// tell a test's own time from the time it queued for the budget.
    static func reportWait(since asked: ContinuousClock.Instant, of test: Test) {
        guard ProcessInfo.processInfo.environment["ANCHORAGE_POOL_PROBE"] != nil else { return }
        let waited = asked.duration(to: .now)
        let seconds = Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18
        guard seconds >= 0.001 else { return }
        let name = test.displayName.map { "\"\($0)\"" } ?? test.name
        print("process-budget: \(name) waited \(String(format: "%.3f", seconds)) s")
    }
}

extension Trait where Self == StartsProcessesTrait {
    /// Each test holds `weight` of the machine's process permits while it
    /// runs (see ``ProcessBudget``).
    public static func startsProcesses(weight: Int = 1) -> Self {
        StartsProcessesTrait(weight: weight)
    }
}
