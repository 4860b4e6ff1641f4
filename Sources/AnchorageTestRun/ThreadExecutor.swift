import Foundation

/// A task executor with one thread of its own, for ``OwnThreadTrait``: jobs
/// run one at a time, in the order they come. ``finish()`` lets the thread
/// end once the queue is empty; a job that still comes later (a
/// continuation resumed after the test) runs on a thread started for it.
///
/// ```swift
/// let executor = ThreadExecutor(name: "test")
/// defer { executor.finish() }
/// try await withTaskExecutorPreference(executor) { try await work() }
/// ```
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // The queue and the flag, under `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    private var running = true

    init(name: String) {
        let thread = Thread { [self] in
            // Named from inside: on Linux a name set before the start does
            // not reach the thread, which keeps its creator's.
            Thread.current.name = name
            loop()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        guard running else {
            condition.unlock()
            // The thread has ended: this late job gets one of its own.
            let executor = asUnownedTaskExecutor()
            Thread { job.runSynchronously(on: executor) }.start()
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once no job is left.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                running = false
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
