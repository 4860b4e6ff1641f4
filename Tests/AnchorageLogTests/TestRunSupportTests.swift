import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import AnchorageTestRun

#if canImport(Glibc)
import Glibc
#endif

/// The helpers the suite's own timing rests on: a child's output read from
/// its pipe as it comes, the budget of tests that start processes, and tests
/// run on a thread of their own.
@Suite("Test run support: child output, the process budget, own threads", .startsProcesses())
struct TestRunSupportTests {
    @Test("a child's output is seen as it comes: a waiter wakes on its line while the child still runs")
    func outputAsItComes() async throws {
        let output = try ChildOutput()
        // The child says it is ready, then waits until it is killed.
        let script = "echo ready on port 4242; exec sleep 600"
        let child = try ChildProcess.spawn("/bin/sh", ["-c", script], watched: output)
        defer {
            child.signal(SIGKILL)
            _ = child.wait(timeout: 10)
        }
        let port = try await output.first("the ready line") { text in
            text.range(of: #"port (\d+)"#, options: .regularExpression).map { Int(text[$0].dropFirst(5)) ?? -1 }
        }
        #expect(port == 4242)
        #expect(child.poll() == nil, "the child still runs: the line was read from the pipe, not after its end")
    }

    @Test("a child that ends before saying what is awaited fails the wait at once, naming it and quoting the output")
    func endedFirst() async throws {
        let log = temporaryPath(prefix: "anchorage-output").appendingPathExtension("log")
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try ChildOutput(log: log)
        let child = try ChildProcess.spawn("/bin/sh", ["-c", "echo cannot bind; exit 3"], watched: output)
        do {
            try await output.wait(for: "the listening line", timeout: 600) { $0.contains("listening") }
            Issue.record("the wait ends when the child does")
        } catch let error as ChildProcessError {
            #expect(error.description.contains("the listening line"), "\(error)")
            #expect(error.description.contains("cannot bind"), "\(error)")
        }
        #expect(await child.exit(within: 60) == 3)
        #expect(try await output.end() == "cannot bind\n")
        #expect(try String(contentsOf: log, encoding: .utf8) == "cannot bind\n", "the output is kept in the log too")
    }

    @Test("the budget hands out permits together and in order; a test never holds more than the capacity")
    func budget() async throws {
        let budget = ProcessBudget(capacity: 2)
        let order = LockedBox<[String]>([])
        let (holding, release) = AsyncStream<Void>.makeStream()
        // One permit held until let go.
        let first = Task {
            await budget.withPermits(1) {
                order.mutate { $0.append("one") }
                for await _ in holding { break }
            }
        }
        try await waitUntil("the first permit taken") { budget.available == 1 }
        // Two asked together wait for both; one asked later waits behind them.
        let pair = Task { await budget.withPermits(2) { order.mutate { $0.append("two") } } }
        try await waitUntil("the pair waiting") { budget.waiting == 1 }
        let single = Task { await budget.withPermits(5) { order.mutate { $0.append("capped") } } }
        try await waitUntil("the single waiting") { budget.waiting == 2 }
        #expect(order.value == ["one"], "one permit free is not enough for the pair, nor for the later ask")
        release.yield()
        release.finish()
        await first.value
        await pair.value
        await single.value
        #expect(order.value == ["one", "two", "capped"])
        #expect(budget.available == 2)
    }

    @Test("the executor behind .ownThread runs a task that prefers it on its thread, after a wait, and its children")
    func threadExecutor() async throws {
        let executor = ThreadExecutor(name: "anchorage-own")
        defer { executor.finish() }
        let names = await Task(executorPreference: executor) { () -> [String] in
            var names = [Self.threadName()]
            // Resumed by another thread: the task comes back to its executor.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread { continuation.resume() }.start()
            }
            names.append(Self.threadName())
            async let child = Self.threadName()
            names.append(await child)
            return names
        }.value
        #expect(names == ["anchorage-own", "anchorage-own", "anchorage-own"])
    }

    static func threadName() -> String {
        let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        return name?.trimmingCharacters(in: .newlines) ?? ""
    }
}
