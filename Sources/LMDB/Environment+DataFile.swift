import CLMDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Environment {
    /// Gives the environment a descriptor of its data file that no other
    /// process holds, opened close-on-exec, in place of the one
    /// `mdb_env_open` opened; returns it.
    ///
    /// LMDB opens the data file without close-on-exec (`mdb_env_get_fd`'s
    /// callers may want it in a child), so a process another thread starts
    /// while the environment opens inherits that descriptor, and its open
    /// file description outlives this environment for as long as the child
    /// runs. Setting close-on-exec afterwards does not reach a child
    /// already started. A `flock` taken on that description would then
    /// stay held by the child after the environment closes. This opens a
    /// new description of the same file (through `/proc/self/fd`, so a
    /// renamed file is still the one mapped), close-on-exec from the
    /// start, and puts it in the old one's place with `dup3`: LMDB goes on
    /// reading and writing the same file through the same number, and a
    /// lock taken on the returned descriptor is this environment's alone.
    /// Call it right after opening, before locking the data file.
    ///
    /// ```swift
    /// let environment = try Environment(path: directory)
    /// let data = try environment.makeDataFileDescriptorPrivate()
    /// guard flock(data, LOCK_EX | LOCK_NB) == 0 else { … }
    /// ```
    ///
    /// Where `/proc` is not mounted (or the replacement fails) it only sets
    /// close-on-exec, which keeps the descriptor from every child started
    /// from then on.
    ///
    /// - Throws: ``LMDBError`` when the environment has no descriptor.
    ///
    /// Related LMDB documentation: `mdb_env_get_fd`.
    @discardableResult
    public func makeDataFileDescriptorPrivate() throws(LMDBError) -> Int32 {
        let descriptor = try dataFileDescriptor
        let status = fcntl(descriptor, F_GETFL)
        let fresh = status < 0 ? -1 : open("/proc/self/fd/\(descriptor)", (status & O_ACCMODE) | O_CLOEXEC)
        if fresh >= 0 {
            defer { close(fresh) }
            if let dup3 = Self.dup3, dup3(fresh, descriptor, O_CLOEXEC) >= 0 { return descriptor }
        }
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        return descriptor
    }

    /// glibc's `dup3`, which Swift's Glibc module leaves out (it is a GNU
    /// extension): `dup2` then `fcntl` would leave a moment in which the
    /// new description is not close-on-exec.
    private static let dup3: (@convention(c) (Int32, Int32, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dup3") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, Int32) -> Int32).self)
    }()
}
