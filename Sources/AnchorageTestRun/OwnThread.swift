public import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A trait for tests that compute for seconds without an `await` (fuzzers,
/// property tests checked against an oracle): each test case runs on a
/// thread of its own (a task executor it prefers), not on one of Swift's
/// cooperative pool threads. The pool has one thread per core; two such
/// tests on it would hold every other test's timers, lease renewals and
/// waits for as long as they compute. On threads of their own they share
/// the cores by the kernel's time slices instead, and the pool stays free.
///
/// ```swift
/// @Suite("Codec fuzzing", .ownThread)
/// struct CodecFuzzTests { … }
/// ```
///
/// The test's structured child tasks (`async let`, task groups) run on the
/// same thread; unstructured tasks it starts run on the pool as usual.
public struct OwnThreadTrait: TestCaseScoping {
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = ThreadExecutor(name: "test")
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) {
            // Yield once, so that even the test's first synchronous stretch
            // runs on the executor's thread.
            await Task.yield()
            try await function()
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test case runs on a thread of its own, off Swift's cooperative
    /// pool (see ``OwnThreadTrait``).
    public static var ownThread: Self { OwnThreadTrait() }
}
