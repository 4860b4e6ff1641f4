#if canImport(Glibc)
import Glibc
#endif
#if canImport(CDispatch)
// `timespec` is also declared by Dispatch's C module, which a release
// build may resolve it to.
import CDispatch
#endif

/// The CPU time the calling thread has used: what a piece of work run on
/// one thread costs, whatever else the machine is doing.
///
/// ```swift
/// let began = ThreadCPUClock.now()
/// compute()
/// let used = ThreadCPUClock.now() - began
/// ```
enum ThreadCPUClock {
    /// The calling thread's CPU time so far; zero where the system cannot
    /// tell (then work counts as free).
    static func now() -> Duration {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return .zero }
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
