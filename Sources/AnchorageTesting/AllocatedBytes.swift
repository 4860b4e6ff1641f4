import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The disk a file takes, its allocated blocks, or 0 when it cannot be
/// read: unlike its length, what a sparse file or one with zeros written
/// ahead (the log's) really uses.
///
/// ```swift
/// let disk = allocatedBytes(atPath: directory.path + "/projections.mdb")
/// ```
public func allocatedBytes(atPath path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { return 0 }
    return Int(status.st_blocks) * 512
}
