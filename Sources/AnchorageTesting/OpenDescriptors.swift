public import Foundation

/// This process's open file descriptors on files under `root` (other tests
/// running beside the caller hold their own: those are not counted).
///
/// ```swift
/// #expect(openDescriptors(under: root) <= 4 * openStores)
/// ```
public func openDescriptors(under root: URL) -> Int {
    let prefix = root.resolvingSymlinksInPath().path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.count { name in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")
        else { return false }
        return target.hasPrefix(prefix + "/") || target == prefix
    }
}
