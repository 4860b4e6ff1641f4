#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A writer-preferring reader/writer lock over `pthread_rwlock_t`.
///
/// ``Environment`` holds it shared for the life of every transaction and
/// exclusively while it changes the map size, because LMDB requires that no
/// transaction of the process is active during `mdb_env_set_mapsize`. Writer
/// preference keeps a stream of short readers from starving a resize.
final class ReadWriteLock: @unchecked Sendable {
    // The lock lives at a stable heap address, as pthread objects must.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        defer { pthread_rwlockattr_destroy(&attributes) }
        #if canImport(Glibc)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        let rc = pthread_rwlock_init(lock, &attributes)
        precondition(rc == 0, "pthread_rwlock_init failed: \(rc)")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func withSharedLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let rc = pthread_rwlock_rdlock(lock)
        precondition(rc == 0, "pthread_rwlock_rdlock failed: \(rc)")
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func withExclusiveLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let rc = pthread_rwlock_wrlock(lock)
        precondition(rc == 0, "pthread_rwlock_wrlock failed: \(rc)")
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
