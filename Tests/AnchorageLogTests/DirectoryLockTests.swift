import AnchorageTestRun
import AnchorageTesting
import Foundation
import LMDB
import Synchronization
import Testing

@testable import AnchorageLog

#if canImport(Glibc)
import Glibc
#endif

// One test at a time: each starts a child that inherits every descriptor
// not close-on-exec, the other tests' deliberately inheritable ones too.
@Suite("A store's lock and the processes this one starts", .serialized, .ownThread)
struct DirectoryLockTests {
    @Test(
        "a process started while a store opens inherits LMDB's descriptor of the data file, not the store's lock: the store reopens while that process runs"
    )
    func childStartedWhileOpeningKeepsNoLock() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("store")
            try await EventLog.open(at: store, configuration: fastConfiguration).close()
            let child = InheritingChild()
            defer { child.stop() }
            do {
                // What another thread's posix_spawn or fork does between
                // mdb_env_open and the lock: the child gets every descriptor
                // not yet close-on-exec, LMDB's own among them.
                let environment = try DirectoryLock.openExclusively(directory: store.path) {
                    let environment = try Environment(
                        path: store.path,
                        configuration: EventLog.environmentConfiguration(fastConfiguration)
                    )
                    try child.start()
                    return environment
                }
                withExtendedLifetime(environment) {
                    #expect(child.holds(store.appendingPathComponent("data.mdb").path), "the child inherited it")
                }
            }
            let reopened = try EventLog.open(at: store, configuration: fastConfiguration)
            await reopened.close()
            #expect(child.holds(store.appendingPathComponent("data.mdb").path), "still running, still holding it")
        }
    }

    @Test("a store held through a descriptor a child process inherited is refused naming that child, not this process")
    func refusalNamesTheChild() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("store")
            try await EventLog.open(at: store, configuration: fastConfiguration).close()
            let child = InheritingChild()
            defer { child.stop() }
            try await child.startHoldingLock(of: store)
            let error = #expect(throws: LogError.self) {
                _ = try EventLog.open(at: store, configuration: fastConfiguration)
            }
            #expect(error?.code == .storeInUse)
            #expect(
                error?.message.contains("held by process \(child.pid) (sleep)") == true,
                "\(String(describing: error))"
            )
            child.stop()
            let reopened = try EventLog.open(at: store, configuration: fastConfiguration)
            await reopened.close()
        }
    }

    @Test(
        "a store held by a copy of this process that has not reached exec opens once the copy reaches it: the opener waits for it"
    )
    func opensWhenTheCopyReachesExec() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("store")
            try await EventLog.open(at: store, configuration: fastConfiguration).close()
            // The store locked on a close-on-exec description, as an open
            // store's is, and a copy of this process stopped before its exec
            // holding it; then this process lets go: only the copy holds it.
            let data = try await lockedDescriptor(of: store, flags: O_RDONLY | O_CLOEXEC)
            let copy = try PreExecCopy(in: directory)
            defer { copy.release() }
            try copy.start()
            close(data)
            let other = open(store.appendingPathComponent("data.mdb").path, O_RDONLY | O_CLOEXEC)
            defer { close(other) }
            #expect(flock(other, LOCK_EX | LOCK_NB) != 0, "the copy holds the lock")

            // The opener waits for the copy (it says so through the seam);
            // then the copy goes on to exec, which closes what it held.
            let waiting = AsyncStream<Void>.makeStream()
            DirectoryLock.willWaitForChild.withLock { hook in
                hook = { path in if path == store.path { waiting.continuation.yield() } }
            }
            defer { DirectoryLock.willWaitForChild.withLock { $0 = nil } }
            let opened = AsyncStream<Result<EventLog, any Error>>.makeStream()
            Thread {
                opened.continuation.yield(Result { try EventLog.open(at: store, configuration: fastConfiguration) })
                waiting.continuation.finish()  // an open that never waited ends the wait for the event
            }.start()
            var waits = waiting.stream.makeAsyncIterator()
            #expect(await waits.next() != nil)
            copy.release()
            var results = opened.stream.makeAsyncIterator()
            let reopened = try #require(await results.next()).get()
            await reopened.close()
            #expect(copy.exitStatus() == 0, "the copy reached exec and ran")
        }
    }
}

/// A new descriptor of `store`'s data file, opened with `flags`, holding an
/// exclusive `flock` on it. Taken as soon as it is free: a store this
/// process just closed stays locked while a copy of this process that
/// another test's `posix_spawn` made before the close has not reached its
/// `exec` (on a busy disk, seconds), as ``EventLog/open(at:configuration:)``
/// knows and waits for.
private func lockedDescriptor(of store: URL, flags: Int32) async throws -> Int32 {
    let data = open(store.appendingPathComponent("data.mdb").path, flags)
    try #require(data >= 0)
    do {
        try await waitUntil("the data file's lock is free", timeout: 120) { flock(data, LOCK_EX | LOCK_NB) == 0 }
    } catch {
        close(data)
        throw error
    }
    return data
}

/// A copy of this process stopped before its `exec`, as one that another
/// thread's `posix_spawn` starts is until the kernel reaches `exec` (on a
/// busy disk, for a second or more): its spawn actions open a FIFO for
/// writing (which tells this process the copy is there) and then another
/// for reading, where it stays, holding a copy of every descriptor of this
/// process, close-on-exec ones too, until ``release()`` opens that FIFO's
/// other end. Then it runs `/bin/true`.
private final class PreExecCopy: @unchecked Sendable {
    private let ready: String
    private let gate: String
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var spawned: (rc: Int32, pid: pid_t)?
    private var released = false
    private var readyWriter: Int32 = -1

    init(in directory: URL) throws {
        ready = directory.appendingPathComponent("ready").path
        gate = directory.appendingPathComponent("gate").path
        try #require(mkfifo(ready, 0o600) == 0)
        try #require(mkfifo(gate, 0o600) == 0)
    }

    /// Starts the copy from a thread of its own (`posix_spawn` returns only
    /// once the copy reaches exec) and returns once the copy is stopped
    /// before its exec.
    func start() throws {
        // Above every descriptor this process has, so the actions replace none.
        let highest =
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [])
            .compactMap { Int32($0) }.max() ?? 2
        let (ready, gate) = (self.ready, self.gate)
        Thread { [self] in
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_addopen(&actions, highest + 1, ready, O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, highest + 2, gate, O_RDONLY, 0)
            let arguments = [strdup("/bin/true"), nil]
            var pid: pid_t = 0
            let rc = posix_spawn(&pid, "/bin/true", &actions, nil, arguments, environ)
            posix_spawn_file_actions_destroy(&actions)
            free(arguments[0])
            // Whatever happened, nobody blocks opening `ready` from now on: a
            // FIFO opened for reading and writing is one that has a writer.
            // Closed by `release()`.
            let writer = open(ready, O_RDWR)
            lock.withLock {
                spawned = (rc, pid)
                readyWriter = writer
            }
            done.signal()
        }.start()
        // Returns when the copy opens the other end (or the spawn ended).
        let end = open(ready, O_RDONLY)
        if end >= 0 { close(end) }
        let failed = lock.withLock { spawned.map { $0.rc != 0 } ?? false }
        try #require(!failed, "posix_spawn failed")
    }

    /// Lets the copy go on to its exec; waits for the spawn to return.
    func release() {
        let first = lock.withLock {
            defer { released = true }
            return !released
        }
        guard first else { return }
        // Opened for reading and writing: the copy's open for reading
        // returns whether it is blocked in it already or gets there later.
        let end = open(gate, O_RDWR)
        done.wait()
        if end >= 0 { close(end) }
        let writer = lock.withLock { readyWriter }
        if writer >= 0 { close(writer) }
    }

    /// The copy's exit status once it ran, reaped here.
    func exitStatus() -> Int32? {
        guard let (rc, pid) = lock.withLock({ spawned }), rc == 0 else { return nil }
        var status: Int32 = 0
        guard waitpid(pid, &status, 0) == pid else { return nil }
        return (status >> 8) & 0xff
    }
}

/// `sleep` started with every descriptor of this process that is not
/// close-on-exec, as a `fork` + `exec` made by code that does not close them
/// would; killed by `stop()`.
private final class InheritingChild: @unchecked Sendable {
    private(set) var pid: pid_t = 0
    private let seconds: Int

    init(seconds: Int = 60) {
        self.seconds = seconds
    }

    func start() throws {
        let words: [String] = ["/bin/sleep", "\(seconds)"]
        let arguments = words.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        let rc = posix_spawn(&pid, "/bin/sleep", nil, nil, arguments, environ)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
    }

    /// Starts the child with a locked description of `store`'s data file,
    /// let go here: only the child holds the lock then.
    func startHoldingLock(of store: URL) async throws {
        let data = try await lockedDescriptor(of: store, flags: O_RDONLY)
        defer { close(data) }
        try start()
    }

    /// Whether the child has a descriptor of `path` open.
    func holds(_ path: String) -> Bool {
        let descriptors = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
        return names.contains {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\($0)")) == path
        }
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }
}
