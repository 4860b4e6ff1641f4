public import Anchorage
public import AnchorageLog
import AnchorageTesting
import Crypto
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
    /// Commits without fsync: tests check logic, not durability. Sealed
    /// under ``testDataKey`` when the run asks for it (``testSealing``).
    public static var forTests: HKHealthStore.Configuration {
        var configuration = HKHealthStore.Configuration()
        configuration.log.durability = .none
        configuration.log.sealing = testSealing
        return configuration
    }

    /// Whether this test run seals the stores it makes: `.sealed` under
    /// ``testDataKey`` when `ANCHORAGE_TEST_SEALING=1` (Scripts/test runs
    /// the store, replication and service suites a second time so, to show
    /// they answer the same sealed), `.off` otherwise.
    public static var testSealing: EventLog.Sealing {
        isSealingRun ? .sealed([testDataKey]) : .off
    }

    /// Whether `ANCHORAGE_TEST_SEALING=1`.
    public static var isSealingRun: Bool {
        ProcessInfo.processInfo.environment["ANCHORAGE_TEST_SEALING"] == "1"
    }

    /// The data key of a sealing test run: fixed bytes, so every store of
    /// the run (peers of one person) shares it.
    public static let testDataKey = try! DataKey(
        id: KeyID("7e57da7a7e57da7a7e57da7a7e57da7a")!,
        version: 1,
        material: SymmetricKey(data: (0..<32).map { UInt8($0) ^ 0xA5 })
    )
}
