#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on `anchorage.lock` in a store's directory, held for
/// as long as the store is open.
///
/// The log keeps its head, counters and version vector in memory, so only
/// one ``EventLog`` may write a store at a time. `flock` locks belong to an
/// open file description: a second open of the same directory fails whether
/// it comes from another process or from this one, and the kernel releases
/// the lock when the process dies.
final class DirectoryLock: Sendable {
    private let descriptor: Int32

    init(directory: String) throws(LogError) {
        let path = directory + "/anchorage.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw LogError(.fileSystem, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard Self.lock(fd) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK {
                throw LogError(
                    .storeInUse,
                    "the store at \(directory) is already open, in this process or another; close it first"
                )
            }
            throw LogError(.fileSystem, "cannot lock \(path): \(String(cString: strerror(code)))")
        }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Takes the lock, waiting up to a quarter of a second for a holder to
    /// let go: a process forked by this one holds a copy of the descriptor
    /// until it calls `exec`, so a store closed and reopened right away can
    /// find its own lock briefly held.
    private static func lock(_ fd: Int32) -> Int32 {
        for _ in 0..<50 {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return 0 }
            guard errno == EWOULDBLOCK else { return -1 }
            usleep(5_000)
        }
        return flock(fd, LOCK_EX | LOCK_NB)
    }
}
