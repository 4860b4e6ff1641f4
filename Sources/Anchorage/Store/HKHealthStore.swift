public import AnchorageLog
public import AnchorageModel
import Foundation

/// The store: HealthKit's `HKHealthStore`, backed by an Anchorage event log.
///
/// Every save and delete is one batch of the store's log; queries read the
/// log's indices. Port HealthKit code by changing the import:
///
/// ```swift
/// import Anchorage
///
/// let store = HKHealthStore()                       // ANCHORAGE_STORE, else ./anchorage-data
/// let steps = HKQuantityType(.stepCount)
/// let sample = HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 840),
///                               start: start, end: end)
/// try await store.save(sample)
/// ```
///
/// One engine serves a directory in a process: every `HKHealthStore` of the
/// same directory shares it. One process writes a store at a time: another
/// process opening the directory gets `errorDatabaseInaccessible` ("in use
/// by process N") on every operation, unless it opens it for reading
/// (``Configuration/readOnly``), which works beside the writer and sees
/// each of its commits.
///
/// A store opened without a principal acts as the data's **owner**: it reads
/// and writes everything and decides authorization requests. A store opened
/// with `principal:` acts as that app, with HealthKit's authorization rules
/// (section 7 of the spec): it asks with ``requestAuthorization(toShare:read:completion:)``,
/// saves under its own source, and never learns whether it was denied read
/// access (AUTH-4).
public final class HKHealthStore: Sendable {
    /// How a store is opened. The first `HKHealthStore` of a directory in a
    /// process decides its configuration; later ones share its engine.
    ///
    /// ```swift
    /// var configuration = HKHealthStore.Configuration()
    /// configuration.log.durability = .none           // bulk import
    /// let store = HKHealthStore(directory: url, configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The log's configuration: durability, map size, logger.
        public var log = EventLog.Configuration()
        /// Samples that end before this date can be neither saved nor read
        /// (OBJ-9).
        public var earliestPermittedSampleDate: Date = .distantPast
        /// How authorization requests of apps are decided.
        public var authorizationPolicy: AuthorizationPolicy = .ownerDecides
        /// Whether an observer query calls its handler once when it starts
        /// (OBS-4).
        public var observerQueriesFireOnStart = true
        /// How long a background delivery waits for the observer's
        /// completion handler before delivering again (it waits twice as
        /// long each time, three times at most).
        public var backgroundDeliveryRetryWait: Duration = .seconds(30)
        /// The clock background delivery's frequencies and retries count on.
        public var clock: StoreClock = .continuous
        /// The time zone statistics collection queries tile days, weeks,
        /// months and years in when their interval components name none
        /// (ST-31).
        public var timeZone: TimeZone = .current
        /// Whether the statistics views are kept current. Off only to
        /// measure what they cost (Scripts/bench): collection queries then
        /// take the reference path with an empty source ranking, and the next
        /// open with the views on rebuilds them.
        @_spi(Benchmarks) public var maintainsStatisticsViews = true
        /// Opens the store for reading only, beside the process that writes
        /// it (such as a running node): queries, anchored queries and
        /// change feeds see every commit of the writer, and follow it as it
        /// commits; saves and deletes fail with `errorDatabaseInaccessible`.
        /// A directory that holds no store is not created: every operation
        /// reports that there is no store there.
        ///
        /// ```swift
        /// var reading = HKHealthStore.Configuration()
        /// reading.readOnly = true
        /// let store = HKHealthStore(directory: url, configuration: reading)
        /// ```
        public var readOnly = false

        /// The defaults: durable commits, owner-decided authorization.
        public init() {}
    }

    /// How requests for authorization are decided.
    public enum AuthorizationPolicy: Sendable, Hashable {
        /// Requests wait for the owner's ``HKHealthStore/setAuthorization(for:toShare:read:granted:)``.
        case ownerDecides
        /// Every request is granted at once (development, single-user nodes).
        case grantAll
        /// Every request is denied at once.
        case denyAll
    }

    /// The environment variable naming the default store's directory.
    public static let storeEnvironmentVariable = "ANCHORAGE_STORE"

    /// The engine, or why the store could not be opened, once the open
    /// (on a thread of its own) is done.
    let opening: StoreOpening
    let caller: Caller
    let queries = QueryRegistry()

    /// The directory of the default store: `$ANCHORAGE_STORE`, else
    /// `./anchorage-data`.
    public static var defaultDirectory: URL {
        if let path = ProcessInfo.processInfo.environment[storeEnvironmentVariable], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("anchorage-data")
    }

    /// Opens the default store as its owner. Like HealthKit's initializer it
    /// does not throw: a store that cannot be opened reports
    /// `errorDatabaseInaccessible`, with the reason, from every operation.
    public convenience init() {
        self.init(directory: Self.defaultDirectory)
    }

    /// Opens (creating) the store in `directory` as its owner.
    public convenience init(directory: URL, configuration: Configuration = Configuration()) {
        self.init(directory: directory, principal: nil, configuration: configuration)
    }

    /// Opens the store in `directory` acting as the app `principal`: saves
    /// are stamped with its source and every access is checked (section 7).
    ///
    /// ```swift
    /// let app = HKHealthStore(directory: url, principal: HKSource(name: "Steps", bundleIdentifier: "com.example.steps"))
    /// ```
    public convenience init(directory: URL, principal: HKSource?, configuration: Configuration = Configuration()) {
        self.init(
            directory: directory,
            principalRevision: principal.map { HKSourceRevision(source: $0, version: nil) },
            configuration: configuration
        )
    }

    /// Opens the store acting as an app revision (source and version).
    public init(directory: URL, principalRevision: HKSourceRevision?, configuration: Configuration = Configuration()) {
        opening = StoreOpening(directory: directory, configuration: configuration)
        caller = Caller(revision: principalRevision)
    }

    /// Whether health data is available: always `true` here.
    public static func isHealthDataAvailable() -> Bool { true }

    /// The app this store acts as; `nil` for the owner.
    public var principal: HKSource? { caller.revision?.source }

    /// The engine, or the error that kept the store from opening.
    /// Synchronous operations block until the open is done.
    func engine() throws(HKError) -> StoreEngine {
        try opening.wait().get()
    }

    /// The engine, or the error that kept the store from opening; suspends
    /// until the open is done.
    func engine() async throws(HKError) -> StoreEngine {
        try await opening.value().get()
    }

    /// Returns once the store is open, without holding a thread while it
    /// opens (an open may rebuild stale indices over the whole log); throws
    /// why it could not be opened.
    ///
    /// ```swift
    /// let store = HKHealthStore(directory: url)
    /// try await store.opened()   // before synchronous calls from async code
    /// ```
    public func opened() async throws(HKError) {
        _ = try await engine()
    }

    /// Why the store could not be opened, if it could not; blocks until the
    /// open is done (``opened()`` waits without blocking).
    public var openError: HKError? {
        if case .failure(let error) = opening.wait() { return error }
        return nil
    }

    /// The earliest date a sample may end and still be saved or read (OBJ-9).
    public func earliestPermittedSampleDate() -> Date {
        (try? engine().configuration.earliestPermittedSampleDate) ?? .distantPast
    }

    /// Stops this store's queries and releases its hold on the store; the
    /// last `HKHealthStore` of a directory to close releases the LMDB
    /// environment and the directory lock. Later operations fail with
    /// `errorDatabaseInaccessible`.
    public func close() async {
        for query in queries.stopAll() { query.stopRunning() }
        guard case .success(let engine) = await opening.value(), queries.markClosed() else { return }
        await engine.release()
    }

    /// The engine, unless this store was closed.
    func openEngine() throws(HKError) -> StoreEngine {
        guard !queries.isClosed else {
            throw HKError(.errorDatabaseInaccessible, "the store was closed")
        }
        return try engine()
    }

    /// The engine, unless this store was closed; suspends until the open
    /// is done.
    func openEngine() async throws(HKError) -> StoreEngine {
        guard !queries.isClosed else {
            throw HKError(.errorDatabaseInaccessible, "the store was closed")
        }
        return try await engine()
    }
}
