import Foundation
import LMDB
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A store's directory lock: only one ``EventLog`` writes a store at a
/// time, since the log keeps its head, counters and version vector in
/// memory.
///
/// Two `flock`s carry it. Every process that opens the store, or needs it
/// closed, first takes `anchorage.lock` (which also names the last opener's
/// process id). The writer then locks the data file through LMDB's own
/// descriptor (``openExclusively(directory:_:)``) and lets `anchorage.lock`
/// go: an open store holds no descriptor for its lock, and the hold ends
/// when its environment closes. That descriptor is first made a
/// description of its own, close-on-exec
/// (`Environment.makeDataFileDescriptorPrivate()`), so a child process
/// started while the store opened cannot keep the lock after it closes. Compaction and deletion hold both for as
/// long as they run (``init(directory:)``). `flock` locks belong to an open
/// file description, so a second open of the same directory fails whether
/// it comes from another process or from this one, and the kernel releases
/// them when the process dies.
package final class DirectoryLock: Sendable {
    private let descriptor: Int32
    /// The data file's descriptor, locked; -1 when the store has none yet.
    private let dataDescriptor: Int32

    /// Takes the whole lock of the store in `directory`: while it is held,
    /// nobody has the store open and nobody opens it.
    ///
    /// - Throws: ``LogError`` `.storeInUse` naming the holder while a
    ///   process has the store open; `.fileSystem` when the lock file
    ///   cannot be opened.
    package init(directory: String) throws(LogError) {
        let entry = try Self.takeEntry(directory)
        do {
            dataDescriptor = try Self.takeDataFile(directory, entry: entry, keep: true)
        } catch {
            close(entry)
            throw error
        }
        descriptor = entry
        Self.nameHolder(entry)
    }

    deinit {
        if dataDescriptor >= 0 { close(dataDescriptor) }
        close(descriptor)
    }

    /// Opens the store's environment as its one writer: under
    /// `anchorage.lock`, once no process has the data file locked, runs
    /// `open`, then locks the data file through the environment's own
    /// descriptor. The hold costs no descriptor of its own and ends when the
    /// environment closes.
    ///
    /// - Throws: ``LogError`` `.storeInUse` naming the holder while a
    ///   process has the store open (the environment is not opened then),
    ///   `.fileSystem`; what `open` throws.
    static func openExclusively(directory: String, _ open: () throws -> Environment) throws -> Environment {
        let entry = try takeEntry(directory)
        defer { close(entry) }
        _ = try takeDataFile(directory, entry: entry, keep: false)
        let environment = try open()
        // Locked on a description no child process can hold: LMDB opens the
        // data file without close-on-exec, so a process started by another
        // thread while `open` ran has a copy of LMDB's own, and a lock on it
        // would outlive the store's close for as long as that child runs.
        let data = try environment.makeDataFileDescriptorPrivate()
        // Waited for like the others: a child started while the probe of
        // `takeDataFile` held its lock holds that lock until its exec.
        guard lock(data, directory: directory) == 0 else {
            throw LogError(.storeInUse, "the store at \(directory) is \(holder(entry, directory: directory))")
        }
        nameHolder(entry)
        return environment
    }

    /// Opens and takes `anchorage.lock`, waiting a little for a holder.
    private static func takeEntry(_ directory: String) throws(LogError) -> Int32 {
        let path = directory + "/anchorage.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw LogError(.fileSystem, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard lock(fd, directory: directory) == 0 else {
            let code = errno
            let holder = holder(fd, directory: directory)
            close(fd)
            if code == EWOULDBLOCK {
                throw LogError(.storeInUse, "the store at \(directory) is \(holder)")
            }
            throw LogError(.fileSystem, "cannot lock \(path): \(String(cString: strerror(code)))")
        }
        return fd
    }

    /// Locks the data file on a descriptor of its own, proving that no
    /// process has the store open; keeps it locked, or lets it go at once.
    /// Returns the descriptor kept, or -1 (none kept, or no data file yet).
    private static func takeDataFile(_ directory: String, entry: Int32, keep: Bool) throws(LogError) -> Int32 {
        let path = directory + "/data.mdb"
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return -1 }
            throw LogError(.fileSystem, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard lock(fd, directory: directory) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK {
                throw LogError(.storeInUse, "the store at \(directory) is \(holder(entry, directory: directory))")
            }
            throw LogError(.fileSystem, "cannot lock \(path): \(String(cString: strerror(code)))")
        }
        guard keep else {
            close(fd)
            return -1
        }
        return fd
    }

    /// Writes this process's id into `anchorage.lock`, for whoever finds
    /// the store in use.
    private static func nameHolder(_ entry: Int32) {
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(entry, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(entry, $0.baseAddress, $0.count, 0) } }
    }

    /// The process id the last opener of the store in `directory` wrote
    /// into `anchorage.lock`, if any.
    private static func namedHolder(_ directory: String) -> Int32? {
        guard let text = try? String(contentsOfFile: directory + "/anchorage.lock", encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Who holds the lock, in words: the process id its holder wrote, and
    /// that process's program and subcommand (not its other arguments,
    /// which may hold secrets); when that is this process, a child of it
    /// that holds a descriptor of the store's files, if there is one.
    private static func holder(_ fd: Int32, directory: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let text = count > 0 ? String(decoding: bytes[..<count], as: UTF8.self) : ""
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else {
            return "already open, in this process or another; close it first"
        }
        if pid == getpid() {
            // This process opened it last. A child it started holds none of
            // a store's files unless it inherited a descriptor, and then
            // that child may be the holder.
            let children = children()
            if let child = children.first(where: {
                holdsFile(in: directory, process: "\($0)", closeOnExecOnly: true)
            }) {
                return "held by process \(child)\(describe(child)), started by this one, which has not yet started "
                    + "its program and holds copies of this one's descriptors until it does"
            }
            if let child = children.first(where: { holdsFile(in: directory, process: "\($0)") }) {
                return "held by process \(child)\(describe(child)), started by this one with a descriptor of the "
                    + "store it inherited; it lets go when that process exits"
            }
            // Said apart for whoever reads the refusal: a store this
            // process still has open, or a holder no descriptor of this
            // process or of its children shows.
            let own = holdsFile(in: directory, process: "self")
            return own
                ? "in use in this process (opened through another path); close that store first"
                : "held, although neither this process, which opened it last, nor a process it started has a "
                    + "descriptor of its files open; another process may hold it"
        }
        return "in use by process \(pid)" + describe(pid)
    }

    /// The program and subcommand of process `pid` in parentheses (not its
    /// other arguments, which may hold secrets), or nothing.
    private static func describe(_ pid: Int32) -> String {
        let arguments =
            (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?
            .split(separator: "\0") ?? []
        var words = arguments.first.map { [String($0.split(separator: "/").last ?? $0)] } ?? []
        if arguments.count > 1, arguments[1].allSatisfy({ $0.isLetter || $0 == "-" }), !arguments[1].hasPrefix("-") {
            words.append(String(arguments[1]))
        }
        return words.isEmpty ? "" : " (\(words.joined(separator: " ")))"
    }

    /// Whether process `process` has a descriptor of a file directly in
    /// `directory` open; with `closeOnExecOnly`, only one marked
    /// close-on-exec counts.
    ///
    /// A child holds a close-on-exec descriptor of this process's store only
    /// between its start and its `exec` (a copy of this process started by
    /// another thread, which drops them at `exec`): such a hold ends by
    /// itself. One that is not close-on-exec is held for as long as the
    /// child runs.
    private static func holdsFile(in directory: String, process: String, closeOnExecOnly: Bool = false) -> Bool {
        // Descriptors name their files by their real paths.
        let directory =
            realpath(directory, nil).map { path in
                defer { free(path) }
                return String(cString: path)
            } ?? directory
        let descriptors = "/proc/\(process)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
        return names.contains { name in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\(name)"),
                target.hasPrefix(directory + "/"), !target.dropFirst(directory.count + 1).contains("/")
            else { return false }
            return !closeOnExecOnly || isCloseOnExec(process: process, descriptor: name)
        }
    }

    /// Whether descriptor `descriptor` of process `process` is marked
    /// close-on-exec: `/proc/PID/fdinfo/FD`'s octal `flags` carry `O_CLOEXEC`
    /// for it.
    private static func isCloseOnExec(process: String, descriptor: String) -> Bool {
        guard let info = try? String(contentsOfFile: "/proc/\(process)/fdinfo/\(descriptor)", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
            let flags = Int(line.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return false }
        return flags & Int(O_CLOEXEC) != 0
    }

    /// This process's children, from every thread's `children` list.
    private static func children() -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// Takes a lock, waiting up to a quarter of a second for a holder to
    /// let go (a process that just ended, or one that holds the lock only
    /// while it opens or checks the store). While a child of this process
    /// holds a close-on-exec descriptor of the store's files, it waits on, up
    /// to ``childWait``, if this process opened the store last: that child
    /// is a copy of this process started (by any thread) while the store was
    /// open, which lets go when it reaches `exec`, and on a busy disk that
    /// took longer than a quarter of a second. A child that holds the store
    /// otherwise (it opened the store itself, and named itself in
    /// `anchorage.lock`, or inherited a descriptor that survives `exec`)
    /// keeps it, and is not waited for: the caller is refused after the
    /// quarter second.
    private static func lock(_ fd: Int32, directory: String) -> Int32 {
        for _ in 0..<50 {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return 0 }
            guard errno == EWOULDBLOCK else { return -1 }
            usleep(5_000)
        }
        // A copy of this process holds only what this process opened.
        guard namedHolder(directory) == getpid() else { return flock(fd, LOCK_EX | LOCK_NB) }
        let deadline = DispatchTime.now() + childWait
        var announced = false
        while DispatchTime.now() < deadline,
            children().contains(where: { holdsFile(in: directory, process: "\($0)", closeOnExecOnly: true) })
        {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return 0 }
            guard errno == EWOULDBLOCK else { return -1 }
            if !announced {
                announced = true
                willWaitForChild.withLock { $0 }?(directory)
            }
            usleep(20_000)
        }
        return flock(fd, LOCK_EX | LOCK_NB)
    }

    /// Called with a store's directory when an opener starts waiting for a
    /// child of this process to let the store go: a seam for tests.
    static let willWaitForChild = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// How long an opener waits for children of this process that hold
    /// descriptors of the store to let go.
    static let childWait = DispatchTimeInterval.seconds(10)
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
