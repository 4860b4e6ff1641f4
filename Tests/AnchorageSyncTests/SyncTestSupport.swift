import AnchorageLog
import AnchorageSync
import Foundation
import Testing

/// Expects `body` to throw a ``SyncError`` with `code`.
func expectSyncError(
    _ code: SyncError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected SyncError \(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as SyncError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected SyncError \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Expects `body` to throw a ``SyncError`` with `code`.
func expectSyncError(
    _ code: SyncError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async {
    do {
        try await body()
        Issue.record("expected SyncError \(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as SyncError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected SyncError \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

/// A fresh directory under the temporary directory, removed after `body`.
func withTemporaryDirectories<R>(
    _ count: Int,
    _ body: ([URL]) async throws -> R
) async throws -> R {
    let base = FileManager.default.temporaryDirectory.appending(path: "anchorage-sync-\(UUID().uuidString)")
    let directories = (0..<count).map { base.appending(path: "store-\($0)") }
    defer { try? FileManager.default.removeItem(at: base) }
    return try await body(directories)
}
