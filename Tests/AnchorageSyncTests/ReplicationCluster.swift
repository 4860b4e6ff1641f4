import AnchorageLog
import AnchorageStoreTesting
import AnchorageSync
import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import Anchorage

/// Peers in one process, each an owner store and an app's handle on it.
final class Cluster: Sendable {
    static let day = Date(timeIntervalSince1970: 1_714_521_600)  // 2024-05-01T00:00:00Z
    static let watch = HKSource(name: "Watch", bundleIdentifier: "com.example.watch")

    let owners: [HKHealthStore]
    let apps: [HKHealthStore]
    let logs: [EventLog]
    /// Batches seen on their way, for delivering again later (duplicated
    /// and reordered deliveries): the receiving peer and the bytes.
    let captured = Mutex<[(target: Int, bytes: [UInt8])]>([])

    /// Peers in `directories`, their store ids drawn from `seed` (which of
    /// two saves wins a conflict follows from their dots' origins).
    init(directories: [URL], seed: UInt64 = 0) throws {
        var configuration = HKHealthStore.Configuration()
        configuration.log.sealing = HKHealthStore.Configuration.testSealing
        configuration.log.durability = .none
        configuration.authorizationPolicy = .grantAll
        configuration.timeZone = TimeZone(identifier: "UTC")!
        var random = SeededGenerator(seed: seed ^ 0x5107_E1D5)
        let configurations = directories.map { _ in
            var own = configuration
            let id = StoreID(UUID.random(using: &random))
            own.log.newStoreID = { id }
            return own
        }
        owners = zip(directories, configurations).map { HKHealthStore(directory: $0, configuration: $1) }
        apps = zip(directories, configurations).map {
            HKHealthStore(directory: $0, principal: Self.watch, configuration: $1)
        }
        logs = try owners.map { try $0.eventLog() }
    }

    /// Lets the app share and read steps on every peer.
    func authorize() async throws {
        let steps: Set<HKQuantityType> = [HKQuantityType(.stepCount)]
        for app in apps { try await app.requestAuthorization(toShare: steps, read: steps) }
    }

    func close() async {
        for store in apps + owners { await store.close() }
    }

    var count: Int { owners.count }

    /// A replicator on `peer`'s log talking to `other`, through an
    /// in-memory transport with `interceptor`.
    func replicator(_ peer: Int, _ other: Int, interceptor: InMemoryTransport.Interceptor? = nil) -> PeerReplicator {
        var configuration = PeerReplicator.Configuration()
        configuration.maximumEntriesPerBatch = 7
        return PeerReplicator(
            log: logs[peer],
            peer: InMemoryTransport(serving: logs[other], interceptor: interceptor),
            configuration: configuration
        )
    }

    /// Every entry of `peer`'s log, in order.
    func entries(_ peer: Int) throws -> [LogEntry] {
        var all: [LogEntry] = []
        var anchor: Anchor?
        repeat {
            let page = try logs[peer].entries(after: anchor, limit: 1_000)
            all += page.entries
            anchor = page.next
            if !page.hasMore { break }
        } while true
        return all
    }

    /// Pulls between every ordered pair until a whole pass applies nothing.
    func converge() async throws {
        for _ in 0..<(count + 2) {
            var applied = 0
            for peer in 0..<count {
                for other in 0..<count where other != peer {
                    applied += try await replicator(peer, other).sync(.pull).pulled?.applied ?? 0
                }
            }
            if applied == 0 { return }
        }
        Issue.record("the peers did not converge within \(count + 2) passes")
    }
}

/// A step sample as the tests compare them across peers.
struct SampleFacts: Hashable, CustomStringConvertible {
    var id: UUID
    var value: Double
    var start: Date
    var end: Date
    var source: String

    init(_ sample: HKQuantitySample) {
        id = sample.uuid
        value = sample.quantity.doubleValue(for: .count())
        start = sample.startDate
        end = sample.endDate
        source = sample.sourceRevision.source.bundleIdentifier
    }

    var description: String { "\(id) \(source) \(start.timeIntervalSince(Cluster.day))s" }
}

/// The visible state as a pure function of the set of entries, computed
/// the simplest way: the rules the store's indices apply incrementally.
enum VisibilityModel {
    static func visibleSteps(in entries: [LogEntry]) -> Set<SampleFacts> {
        var decoder = PayloadDecoder()
        var deleted = Set<UUID>()
        var winners: [UUID: (dot: Dot, sample: HKQuantitySample)] = [:]
        for entry in entries where entry.kind.rawValue == HKQuantityType(.stepCount).kindCode {
            if entry.operation == .delete {
                deleted.insert(entry.id)
                continue
            }
            guard let payload = entry.payload, let sample = try? decoder.decode(Array(payload)) as? HKQuantitySample,
                sample.uuid == entry.id
            else { continue }
            if let known = winners[entry.id], known.dot < entry.dot { continue }
            winners[entry.id] = (entry.dot, sample)
        }
        var bySyncKey: [String: (version: Double, dot: Dot, sample: HKQuantitySample)] = [:]
        var visible = Set<SampleFacts>()
        for (id, winner) in winners where !deleted.contains(id) {
            guard let identifier = winner.sample.metadata?[HKMetadataKeySyncIdentifier] as? String,
                let version = (winner.sample.metadata?[HKMetadataKeySyncVersion] as? NSNumber)?.doubleValue
            else {
                visible.insert(SampleFacts(winner.sample))
                continue
            }
            let key = winner.sample.sourceRevision.source.bundleIdentifier + "\u{0}" + identifier
            if let current = bySyncKey[key],
                current.version > version || (current.version == version && current.dot < winner.dot)
            {
                continue
            }
            bySyncKey[key] = (version, winner.dot, winner.sample)
        }
        for (_, winner) in bySyncKey { visible.insert(SampleFacts(winner.sample)) }
        return visible
    }

    /// Per source, per hour of the day: the prorated sum of the samples.
    static func hourlySums(of samples: Set<SampleFacts>) -> [String: [Int: Double]] {
        var sums: [String: [Int: Double]] = [:]
        for sample in samples {
            let duration = sample.end.timeIntervalSince(sample.start)
            for hour in 0..<26 {
                let start = Cluster.day.addingTimeInterval(Double(hour) * 3_600)
                let end = start.addingTimeInterval(3_600)
                let overlap = min(end, sample.end).timeIntervalSince(max(start, sample.start))
                guard overlap > 0 || (duration == 0 && sample.start >= start && sample.start < end) else { continue }
                let share = duration == 0 ? sample.value : sample.value * overlap / duration
                sums[sample.source, default: [:]][hour, default: 0] += share
            }
        }
        return sums
    }
}
