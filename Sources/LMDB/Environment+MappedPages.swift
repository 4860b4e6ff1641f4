import CLMDB
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Environment {
    /// Lets go of this process's mapping of the environment's pages (and its
    /// companion's): they leave the process's resident memory and stay in
    /// the page cache, where the kernel may reclaim them; the next read of a
    /// page maps it again (a minor fault when it is still cached).
    ///
    /// LMDB reads through a shared, read-only map of the data file, so every
    /// page a transaction has looked at stays resident in the process: a
    /// bulk import that looks up keys all over its indices ends with most of
    /// its files counted in its resident memory, although none of it is the
    /// process's own. Nothing is lost or written: the pages are the file's.
    ///
    /// ```swift
    /// try environment.write { txn in … }
    /// environment.releaseMappedPages()
    /// ```
    ///
    /// Related documentation: `madvise(2)`, `MADV_DONTNEED` on a shared file
    /// mapping.
    public func releaseMappedPages() {
        // Under the lock the map is resized with: the range is the map's
        // for as long as it is held.
        resizeLock.withSharedLock {
            let info = info()
            guard let address = mapAddress(mapSize: info.mapSize) else { return }
            let used = min(info.mapSize, (info.lastPage + 1) * info.pageSize)
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let length = (used + page - 1) / page * page
            if length > 0 { _ = madvise(UnsafeMutableRawPointer(bitPattern: address), length, MADV_DONTNEED) }
        }
        companion?.releaseMappedPages()
    }

    /// The address of the memory map of `mapSize` bytes. LMDB does not
    /// say where its map is (`mdb_env_info`'s `me_mapaddr` is the fixed
    /// address asked for, NULL without `MDB_FIXEDMAP`): it is the mapping of
    /// the data file's device and inode, from offset 0, in
    /// `/proc/self/maps`; remembered until the map is resized.
    func mapAddress(mapSize: Int) -> UInt? {
        if let known = mapLocation.withLock({ $0 }), known.mapSize == mapSize { return known.address }
        var status = stat()
        guard let descriptor = try? dataFileDescriptor, fstat(descriptor, &status) == 0,
            let file = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps"))
        else { return nil }
        defer { try? file.close() }
        // Read to its end: the file reports no size.
        guard let data = try? file.readToEnd() else { return nil }
        let device = UInt64(status.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        let wanted = String(format: "%02llx:%02llx", major, minor)
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            // start-end perms offset major:minor inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, UInt64(fields[4]) == UInt64(status.st_ino), fields[3] == wanted,
                UInt64(fields[2], radix: 16) == 0
            else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                Int(end - start) == mapSize
            else { continue }
            mapLocation.withLock { $0 = (mapSize, start) }
            return start
        }
        return nil
    }
}
