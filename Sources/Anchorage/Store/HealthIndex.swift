import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// The store's indices: a projection of the log kept current in the write
/// transaction of every batch, and rebuilt exactly by replaying the log.
///
/// | database | key | value |
/// | --- | --- | --- |
/// | `hk.objects` | uuid | ``ObjectRecord`` |
/// | `hk.type-time` | kind ‖ start ‖ seq | end |
/// | `hk.type-seq` | kind ‖ seq | operation ‖ uuid |
/// | `hk.kind-stats` | kind | longest sample duration seen (seconds, IEEE bits) |
/// | `hk.sources` | kind ‖ bundle id | live sample count ‖ source name |
/// | `hk.sync-ids` | SHA-256(bundle id ‖ 0 ‖ sync identifier) | uuid ‖ version (IEEE bits) of the visible one |
/// | `hk.sync-candidates` | sync key ‖ uuid | version (IEEE bits) ‖ dot of every live or superseded object |
/// | `hk.member-of` | member uuid | correlation uuid |
/// | `hk.members` | correlation uuid ‖ member uuid | – |
/// | `hk.workout-samples` | workout uuid ‖ sample uuid | – |
/// | `hk.sample-workouts` | sample uuid ‖ workout uuid | – |
/// | `hk.efforts` | workout uuid ‖ sample uuid | seq of the deciding effort entry ‖ related (1) ‖ activity uuid (when related to one) |
/// | `hk.sample-efforts` | sample uuid ‖ workout uuid | – |
/// | `hk.grants` | bundle id length (1) ‖ bundle id ‖ kind ‖ access | status ‖ seq |
/// | `hk.settings` | name | seq of the entry holding the setting |
/// | `hk.conflicts` | uuid ‖ seq of the losing save | seq of the winning save (two different saves of one id) |
struct HealthIndex: Sendable {
    let objects: Database
    let typeTime: Database
    let typeSeq: Database
    let kindStats: Database
    let sources: Database
    let syncIDs: Database
    let syncCandidates: Database
    let memberOf: Database
    let members: Database
    let workoutSamples: Database
    let sampleWorkouts: Database
    let efforts: Database
    let sampleEfforts: Database
    let grants: Database
    let settings: Database
    let conflicts: Database
    /// Earlier entries of the log, for the merge rules.
    let lookup: EntryLookup
    /// What the index keeps between entries on the log's writer thread.
    let writer = IndexWriterContext()

    /// Opens the index databases (creating them in a write transaction).
    init(in txn: borrowing DatabaseOpener) throws {
        objects = try txn.openStoreDatabase("hk.objects", keys: .clear)
        typeTime = try txn.openStoreDatabase("hk.type-time", keys: .kindFirst, sealsValues: false)
        typeSeq = try txn.openStoreDatabase("hk.type-seq", keys: .kindFirst, sealsValues: false)
        kindStats = try txn.openStoreDatabase("hk.kind-stats", keys: .kindFirst)
        sources = try txn.openStoreDatabase("hk.sources", keys: ProjectionKeyLayout(.kind, .identifier))
        syncIDs = try txn.openStoreDatabase("hk.sync-ids", keys: ProjectionKeyLayout(.identifier))
        syncCandidates = try txn.openStoreDatabase(
            "hk.sync-candidates",
            keys: ProjectionKeyLayout(.fixedIdentifier(32))
        )
        memberOf = try txn.openStoreDatabase("hk.member-of", keys: .clear, sealsValues: false)
        members = try txn.openStoreDatabase("hk.members", keys: .clear, sealsValues: false)
        workoutSamples = try txn.openStoreDatabase("hk.workout-samples", keys: .clear, sealsValues: false)
        sampleWorkouts = try txn.openStoreDatabase("hk.sample-workouts", keys: .clear, sealsValues: false)
        efforts = try txn.openStoreDatabase("hk.efforts", keys: .clear, sealsValues: false)
        sampleEfforts = try txn.openStoreDatabase("hk.sample-efforts", keys: .clear, sealsValues: false)
        grants = try txn.openStoreDatabase(
            "hk.grants",
            keys: ProjectionKeyLayout(.lengthPrefixedIdentifier, .kind),
            sealsValues: false
        )
        // Medication concepts are identifiers; the other settings' names are not.
        settings = try txn.openStoreDatabase(
            "hk.settings",
            keys: ProjectionKeyLayout(.identifierAfter(Self.medicationPrefix))
        )
        conflicts = try txn.openStoreDatabase("hk.conflicts", keys: .clear, sealsValues: false)
        lookup = try EntryLookup(in: txn)
    }

    /// Every database, in a fixed order (for rebuilds and comparisons).
    var all: [Database] {
        [
            objects, typeTime, typeSeq, kindStats, sources, syncIDs, syncCandidates, memberOf, members,
            workoutSamples, sampleWorkouts, efforts, sampleEfforts, grants, settings, conflicts,
        ]
    }

    /// The key of a sync identifier row (OBJ-33).
    static func syncKey(source: String, identifier: String) -> [UInt8] {
        EntryDigest.of(Array(source.utf8) + [0] + Array(identifier.utf8)).bytes
    }

    /// The key prefix of a principal's grants.
    static func grantPrefix(_ principal: String) -> [UInt8] {
        let bytes = Array(principal.utf8.prefix(255))
        return [UInt8(bytes.count)] + bytes
    }

    /// The key of one grant.
    static func grantKey(_ principal: String, kind: EntryKind, access: AuthorizationRecord.Access) -> [UInt8] {
        grantPrefix(principal) + kind.rawValue.bigEndianBytes + [access.rawValue]
    }

    /// The key of a source count row.
    static func sourceKey(kind: EntryKind, bundle: String) -> [UInt8] {
        kind.rawValue.bigEndianBytes + Array(bundle.utf8)
    }

    static let characteristicsSetting = Array("characteristics".utf8)
    static let preferredUnitsSetting = Array("preferredUnits".utf8)
}

/// The index's memo on the log's writer thread: a payload decoder that
/// keeps the last source revision and unit between entries (a cache: it
/// never changes what is decoded), and the store's own origin.
final class IndexWriterContext: @unchecked Sendable {
    // @unchecked: `decoder` is used only on the log's writer thread;
    // `localOrigin` is set once, before the first append.
    private var decoder = IndexWriterContext.countingDecoder()

    /// A decoder that reads a series' count and skips its points: the
    /// index never needs them, and a query checks them when it reads them
    /// (SERIES-1, SERIES-2, ECG-1).
    static func countingDecoder() -> PayloadDecoder {
        var decoder = PayloadDecoder()
        decoder.readsSeriesPoints = false
        return decoder
    }

    /// The origin of entries this store creates.
    var localOrigin: StoreID?

    /// What the index reads of a sample payload; `nil` for one the
    /// decoder refuses.
    func summary(_ bytes: UnsafeRawBufferPointer) -> SampleSummary? {
        try? decoder.summary(bytes)
    }
}

/// The input a local save's precondition hands the index: every sample
/// save of the batch must be a new id (OBJ-32). The index checks it with
/// the same search that stores the id.
struct NewObjectsOnly: Sendable {}

/// A quantity sample that became visible or stopped being visible.
enum VisibilityChange {
    case shown(kind: EntryKind, saveSeq: UInt64, sample: ViewSample)
    case hidden(kind: EntryKind, saveSeq: UInt64, startKey: UInt64)
}

/// What the statistics views keep of a quantity sample: taken from the
/// object the index decoded, so the views never decode it again.
struct ViewSample {
    var source: HKSource
    /// Reference-date seconds.
    var start: Double
    var end: Double
    /// In the type's canonical unit.
    var value: Double
    var userEntered: Bool
    /// The quantities of a sample built as a series (SERIES-6): the views
    /// keep each of them in place of the sample's aggregate.
    var parts: [QuantitySeries.Quantity]?

    /// A quantity sample's, with the bounds its caller has read already.
    init(
        source: HKSource,
        start: Double,
        end: Double,
        quantity: (value: Double, userEntered: Bool),
        parts: [QuantitySeries.Quantity]? = nil
    ) {
        self.source = source
        self.start = start
        self.end = end
        value = quantity.value
        userEntered = quantity.userEntered
        self.parts = parts
    }
}

/// What the index publishes for each batch (``ProjectionContext``): the
/// quantity saves it read, in order, and what it showed and hid.
struct IndexOutput {
    var quantitySaves: [(kind: EntryKind, source: HKSource, timestamp: Int64)] = []
    var changes: [VisibilityChange] = []
}

extension DatabaseOpener {
    /// Opens one of the store's index or view databases (creating it in a
    /// write transaction), sealed when the store is: the identifiers in its
    /// keys as `keys` says, its values unless `sealsValues` is false (the
    /// tables whose values hold no health value, date, source, device or
    /// string: statuses, sequence numbers, uuids, or nothing).
    ///
    /// - Throws: ``HKError`` `errorDatabaseInaccessible` when it cannot: in
    ///   a read transaction, when a process that writes has not created it yet.
    func openStoreDatabase(_ name: String, keys: ProjectionKeyLayout, sealsValues: Bool = true) throws -> Database {
        guard let database = try projectionDatabase(named: name, keys: keys, sealsValues: sealsValues) else {
            throw HKError(
                .errorDatabaseInaccessible,
                "the store has no \(name) database yet; open it once with a command that writes (such as `anchorage rebuild`)"
            )
        }
        return database
    }
}
