import CLMDB

#if canImport(Glibc)
import Glibc
#endif

extension Environment {
    /// Keeps written, zeroed space in the data file past its last page, as
    /// PostgreSQL fills a WAL segment with zeros before it writes there.
    ///
    /// LMDB appends pages past the end of the file, so every commit that
    /// adds pages also changes the file's size, and its flush must write the
    /// inode (and on a journaling file system commit its journal) as well as
    /// the data. Over zeros already on
    /// disk, a commit only overwrites blocks: its flushes write data alone
    /// (about a third less time each on this project's machines). When
    /// fewer than `headroom` bytes lie between the last page and the end of
    /// the file, zeros are written up to `headroom + extent` past the last
    /// page, holding LMDB's write lock (so no writer, in this process or
    /// another, is adding pages meanwhile), and flushed when `flushes`;
    /// only bytes past the file's end are written, never a page LMDB may use.
    ///
    /// The zeros go `piece` bytes per `pwrite` (rounded to whole pages),
    /// and the kernel caches them in folios no larger. A file's cache pages
    /// are made when first written or read: a write of 1 MiB makes folios
    /// of up to 1 MiB (Linux 6.x on ext4, XFS and others), and every later
    /// 4 KiB write of a page inside one walks all of the folio's blocks.
    /// Measured on this project's machine (6.18, ext4): a random 4 KiB
    /// `pwrite` costs 1.1 µs into single-page folios, 2.3 µs into 64 KiB
    /// ones and 43 µs into 2 MiB ones; LMDB writes each commit's pages that
    /// way. Small pieces cost long runs of new pages instead: beside a bulk
    /// append without zeros, the append with them ran at 81–88 % in pieces
    /// of a page, 93–100 % of 64 KiB, 94–96 % of 1 MiB.
    ///
    /// ```swift
    /// try environment.preallocate(headroom: 4 << 20, extent: 16 << 20)
    /// ```
    ///
    /// Call it between write transactions, never inside one. The file's
    /// length then exceeds ``usedBytes`` by at most `headroom + extent`;
    /// a copy (``copy(to:)``) holds only the pages.
    ///
    /// - Parameter piece: the bytes per write, and so the largest folio
    ///   (64 KiB by default; the page size for a file whose commits write
    ///   mostly pages far apart).
    /// - Parameter flushes: whether to `fdatasync` the zeros (a file whose
    ///   commits are flushed gains by it; one written without flushes, as a
    ///   store's projections, only wants the cache pages and the blocks).
    /// - Returns: the bytes written (0 when there was room).
    /// - Throws: ``LMDBError`` when the file cannot be written or flushed
    ///   (a full disk: the zeros written so far stay, harmless).
    @discardableResult
    public func preallocate(
        headroom: Int,
        extent: Int,
        piece: Int = 64 << 10,
        flushes: Bool = true
    ) throws(LMDBError) -> Int {
        let descriptor = try dataFileDescriptor
        guard let length = Self.length(of: descriptor), length - usedBytes < headroom else { return 0 }
        return try withWriteLock { () throws(LMDBError) -> Int in
            // Under the lock: the last page and the length as they are now.
            guard let length = Self.length(of: descriptor) else { return 0 }
            let target = usedBytes + headroom + extent
            guard length < target else { return 0 }
            // Writes ending on piece boundaries: folios of a piece at most.
            let piece = max(pageSize, piece / pageSize * pageSize)
            let zeros = [UInt8](repeating: 0, count: piece)
            var offset = length
            while offset < target {
                let count = min(piece - offset % piece, target - offset)
                let written = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, count, off_t(offset)) }
                guard written > 0 else { throw Self.fileError("pwrite", errno) }
                offset += written
            }
            guard !flushes || fdatasync(descriptor) == 0 else { throw Self.fileError("fdatasync", errno) }
            return offset - length
        }
    }

    /// The data file's length, or `nil` when it cannot be read.
    private static func length(of descriptor: Int32) -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return Int(status.st_size)
    }

    private static func fileError(_ function: String, _ number: Int32) -> LMDBError {
        LMDBError(
            code: number == ENOSPC ? .noSpace : .other,
            function: function,
            returnCode: number,
            message: "could not extend the data file ahead of its pages: \(String(cString: strerror(number)))"
        )
    }

    /// Runs `body` holding LMDB's write lock (a write transaction that
    /// writes nothing and is aborted).
    private func withWriteLock<R>(_ body: () throws(LMDBError) -> R) throws(LMDBError) -> R {
        try resizeLock.withSharedLock { () throws(LMDBError) -> R in
            var txn: OpaquePointer?
            try check(mdb_txn_begin(handle, nil, 0, &txn), "mdb_txn_begin")
            defer { mdb_txn_abort(txn) }
            return try body()
        }
    }
}
