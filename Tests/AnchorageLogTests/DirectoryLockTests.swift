import AnchorageTesting
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

#if canImport(Glibc)
import Glibc
#endif

// One test at a time: each starts a child that inherits every descriptor
// not close-on-exec, the other tests' deliberately inheritable ones too.
@Suite("A store's lock and the processes this one starts", .serialized)
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
            try child.startHoldingLock(of: store)
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
        "a store held through a descriptor a child process inherited opens once that child lets go, well within the wait for children"
    )
    func opensWhenTheChildLetsGo() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("store")
            try await EventLog.open(at: store, configuration: fastConfiguration).close()
            // A child that holds a locked copy for a second, as one started
            // while a store was open holds it until it reaches exec.
            let child = InheritingChild(seconds: 1)
            defer { child.stop() }
            try child.startHoldingLock(of: store)
            let reopened = try EventLog.open(at: store, configuration: fastConfiguration)
            #expect(!child.holds(store.appendingPathComponent("data.mdb").path), "it waited for the child")
            await reopened.close()
        }
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
    func startHoldingLock(of store: URL) throws {
        let data = open(store.appendingPathComponent("data.mdb").path, O_RDONLY)
        try #require(data >= 0)
        defer { close(data) }
        try #require(flock(data, LOCK_EX | LOCK_NB) == 0)
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
