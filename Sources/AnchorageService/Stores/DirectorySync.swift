import AnchorageLog
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Makes a directory's entries durable (created, renamed or removed
/// children), as POSIX asks: fsync on the directory itself.
enum DirectorySync {
    struct Failed: Error, CustomStringConvertible {
        let path: String
        let errno: Int32
        var description: String { "fsync of the directory \(path): \(String(cString: strerror(errno)))" }
    }

    static func sync(_ directory: URL) throws {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failed(path: directory.path, errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failed(path: directory.path, errno: errno) }
    }
}

/// The lock every process that opens a store takes (the log's
/// `anchorage.lock`): while it is held, nobody has the store open, and
/// nobody can open it.
final class StoreDirectoryLock {
    private let lock: DirectoryLock

    /// Takes the lock, or returns `nil` when a process has the store open.
    init?(directory: URL) throws {
        do {
            lock = try DirectoryLock(directory: directory.path)
        } catch  where error.code == .storeInUse {
            return nil
        }
    }
}
