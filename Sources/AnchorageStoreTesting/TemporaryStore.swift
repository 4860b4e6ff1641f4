public import Anchorage
import AnchorageLog
import AnchorageTesting
import Foundation

/// Runs `body` with a store in a new temporary directory; the store is
/// closed and the directory removed afterwards, whether `body` returns or
/// throws.
///
/// ```swift
/// try await withTemporaryStore { store, directory in
///     try await store.save(sample)
/// }
/// ```
public func withTemporaryStore<R>(
    configuration: HKHealthStore.Configuration = .forTests,
    _ body: (HKHealthStore, URL) async throws -> R
) async throws -> R {
    let directory = temporaryPath(prefix: "anchorage-store")
    let store = HKHealthStore(directory: directory, configuration: configuration)
    do {
        let result = try await body(store, directory)
        await store.close()
        try? FileManager.default.removeItem(at: directory)
        return result
    } catch {
        await store.close()
        try? FileManager.default.removeItem(at: directory)
        throw error
    }
}

extension HKHealthStore.Configuration {
    /// Commits without fsync: tests check logic, not durability.
    public static var forTests: HKHealthStore.Configuration {
        var configuration = HKHealthStore.Configuration()
        configuration.log.durability = .none
        return configuration
    }
}
