public import Foundation

/// Runs `body` with a new, empty directory that is removed afterwards,
/// whether `body` returns or throws.
///
/// ```swift
/// try await withTemporaryDirectory { directory in
///     let store = try HKHealthStore(directory: directory)
///     …
/// }
/// ```
@discardableResult
public func withTemporaryDirectory<R>(
    prefix: String = "anchorage-tests",
    _ body: (URL) async throws -> R
) async rethrows -> R {
    let directory = temporaryPath(prefix: prefix)
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// A path in the temporary directory that nothing uses yet: `prefix`
/// followed by a fresh uuid. Nothing is created; the caller removes what it
/// makes there.
public func temporaryPath(prefix: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
}
