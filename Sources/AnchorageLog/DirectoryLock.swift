import Foundation

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
package final class DirectoryLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock of the store in `directory`.
    ///
    /// - Throws: ``LogError`` `.storeInUse` naming the holder while a
    ///   process has the store open; `.fileSystem` when the lock file
    ///   cannot be opened.
    package init(directory: String) throws(LogError) {
        let path = directory + "/anchorage.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw LogError(.fileSystem, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard Self.lock(fd) == 0 else {
            let code = errno
            let holder = Self.holder(fd)
            close(fd)
            if code == EWOULDBLOCK {
                throw LogError(.storeInUse, "the store at \(directory) is \(holder)")
            }
            throw LogError(.fileSystem, "cannot lock \(path): \(String(cString: strerror(code)))")
        }
        descriptor = fd
        // Name the holder for whoever finds the store in use.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
    }

    /// Who holds the lock, in words: the process id its holder wrote, and
    /// that process's program and subcommand (not its other arguments,
    /// which may hold secrets).
    private static func holder(_ fd: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let text = count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : ""
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else {
            return "already open, in this process or another; close it first"
        }
        if pid == getpid() { return "in use in this process (opened through another path); close that store first" }
        let arguments =
            (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?
            .split(separator: "\0") ?? []
        var words = arguments.first.map { [String($0.split(separator: "/").last ?? $0)] } ?? []
        if arguments.count > 1, arguments[1].allSatisfy({ $0.isLetter || $0 == "-" }), !arguments[1].hasPrefix("-") {
            words.append(String(arguments[1]))
        }
        return "in use by process \(pid)" + (words.isEmpty ? "" : " (\(words.joined(separator: " ")))")
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

/// A `flock` on `anchorage.readers` in a store's directory: shared by every
/// process that reads the store beside its writer (``EventLog/openForReading(at:configuration:projections:)``),
/// exclusive for ``EventLog/compact(at:)``, which replaces the data file: a
/// reader keeps the file it opened, so the two must not overlap.
final class ReaderLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock: shared (waiting while a compaction runs), or
    /// exclusive, failing at once with ``LogError/Code/storeInUse`` while
    /// another process reads the store.
    init(directory: String, exclusive: Bool) throws(LogError) {
        let path = directory + "/anchorage.readers"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw LogError(.fileSystem, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var result: Int32
        repeat {
            result = flock(fd, exclusive ? LOCK_EX | LOCK_NB : LOCK_SH)
        } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK {
                throw LogError(
                    .storeInUse,
                    "the store at \(directory) is read by another process (a `changes --follow`, a reader beside "
                        + "a node); stop it first"
                )
            }
            throw LogError(.fileSystem, "cannot lock \(path): \(String(cString: strerror(code)))")
        }
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }
}
