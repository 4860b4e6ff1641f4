import Foundation

/// The resident bytes of this process's mappings of the file at `path`:
/// the sum of the `Rss:` lines of its entries in `/proc/self/smaps`, or nil
/// when the file is not mapped.
///
/// ```swift
/// let resident = try mappedResidentBytes(of: directory.path + "/data.mdb")
/// ```
public func mappedResidentBytes(of path: String) throws -> Int? {
    // Read to its end: the file reports no size, and a single read of it
    // stops at a page.
    let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps"))
    defer { try? file.close() }
    let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
    var total: Int?
    var inside = false
    for line in smaps.split(separator: "\n") {
        let range = line.prefix { $0 != " " }
        if range.contains("-"), range.allSatisfy({ $0 == "-" || $0.isHexDigit }) {
            // A mapping's first line: its address range, …, its path.
            inside = line.hasSuffix(" " + path)
            if inside { total = total ?? 0 }
        } else if inside, line.hasPrefix("Rss:") {
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            total = (total ?? 0) + kilobytes * 1_024
        }
    }
    return total
}
