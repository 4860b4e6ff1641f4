import LMDB
import Logging

extension LogWriter {
    /// How far ahead of a log of `used` bytes zeros are kept: written when
    /// fewer than `headroom` bytes are left past the last page, up to
    /// `headroom + extent` past it. In proportion to the log (an eighth
    /// more at most), so that a node's many small, quiet stores keep
    /// little: 32 + 64 KiB for a new store, 2 + 4 MiB from a 32 MiB log on.
    static func preallocation(forUsed used: Int) -> (headroom: Int, extent: Int) {
        (min(2 << 20, max(32 << 10, used / 16)), min(4 << 20, max(64 << 10, used / 8)))
    }

    /// The same for the projections' file, without the floor: their zeros
    /// are for the random writes of large files, and a node's many small
    /// stores should not each carry 96 KiB more.
    static func projectionPreallocation(forUsed used: Int) -> (headroom: Int, extent: Int) {
        (min(2 << 20, used / 16), min(4 << 20, used / 8))
    }

    /// Keeps zeros written ahead of the log's last page
    /// (``LMDB/Environment/preallocate(headroom:extent:piece:flushes:)``),
    /// so that a commit's flush writes data, not the file's new size too
    /// (in 64 KiB pieces: the log grows by runs of pages); and ahead of the
    /// projections' last page, unflushed as their commits are, a page per
    /// write, so that the pages commits add there, mostly far apart, land
    /// in single-page cache folios. Runs on the writer's thread before each
    /// commit; a failure (a full disk) is left to the commit, which reports
    /// it.
    static func preallocate(_ environment: Environment, logger: Logger) {
        let (headroom, extent) = preallocation(forUsed: environment.usedBytes)
        do {
            try environment.preallocate(headroom: headroom, extent: extent)
            if let companion = environment.companion {
                let (headroom, extent) = projectionPreallocation(forUsed: companion.usedBytes)
                try companion.preallocate(
                    headroom: headroom,
                    extent: extent,
                    piece: companion.pageSize,
                    flushes: false
                )
            }
        } catch {
            logger.debug(
                "could not write zeros ahead of the store's pages",
                metadata: ["anchorage.log.error": "\(error)"]
            )
        }
    }
}
