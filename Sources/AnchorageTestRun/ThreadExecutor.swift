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
            // Named from inside, in the kernel (`comm`, 15 bytes): on Linux a
            // name set before the start does not reach the thread, which
            // keeps its creator's, and Foundation's `Thread.name` can still
            // answer the creator's when the thread names itself before
            // `start()` has returned.
            Self.nameCurrentThread(name)
            loop()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Names the calling thread in the kernel (what `ps`, `top` and
    /// `/proc/thread-self/comm` show): its first 15 bytes.
    static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
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
