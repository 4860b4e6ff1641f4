import Anchorage
import AnchorageLog
import AnchorageService
import AnchorageTesting
import Foundation
import Testing

/// A seeded history of step and heart-rate saves and step deletions, with
/// the reference model of what a feed of steps read from the beginning
/// reports: the steps that exist in save order, and the ones deleted.
struct FeedHistory {
    static let steps = HKQuantityType(.stepCount)
    static let heart = HKQuantityType(.heartRate)
    static let predicates: [HKSamplePredicate<HKSample>] = [.sample(type: steps)]

    /// Steps that exist, in save order.
    private(set) var live: [HKQuantitySample] = []
    /// Steps saved and then deleted.
    private(set) var deleted: Set<UUID> = []
    var random: SeededGenerator
    private var minute = 0

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    var liveIDs: [UUID] { live.map(\.uuid) }

    /// `commits` more commits: each saves one to four samples (steps or
    /// heart rate), or deletes one to two steps.
    mutating func run(_ commits: Int, on store: HKHealthStore) async throws {
        for _ in 0..<commits {
            if !live.isEmpty && Int.random(in: 0..<4, using: &random) == 0 {
                var gone: [HKQuantitySample] = []
                for _ in 0..<Int.random(in: 1...2, using: &random) where !live.isEmpty {
                    gone.append(live.remove(at: Int.random(in: 0..<live.count, using: &random)))
                }
                try await store.delete(gone)
                deleted.formUnion(gone.map(\.uuid))
                continue
            }
            var batch: [HKQuantitySample] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let isStep = Bool.random(using: &random)
                let sample = Self.sample(
                    type: isStep ? Self.steps : Self.heart,
                    value: Double(Int.random(in: 1...200, using: &random)),
                    minute: minute,
                    uuid: Self.uuid(&random)
                )
                minute += 1
                batch.append(sample)
                if isStep { live.append(sample) }
            }
            try await store.save(batch)
        }
    }

    static func sample(type: HKQuantityType, value: Double, minute: Int, uuid: UUID) -> HKQuantitySample {
        let start = Date(timeIntervalSince1970: 1_717_200_000 + Double(minute) * 60)
        let unit = type == steps ? HKUnit.count() : HKUnit.count().unitDivided(by: .minute())
        return HKQuantitySample(
            type: type,
            quantity: HKQuantity(unit: unit, doubleValue: value),
            start: start,
            end: start.addingTimeInterval(30)
        ).with(uuid: uuid)
    }

    static func uuid(_ random: inout SeededGenerator) -> UUID {
        let (high, low) = (random.next(), random.next())
        let text = String(format: "%016llX%016llX", high, low)
        let hex = Array(text)
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
        return UUID(uuidString: groups.joined(separator: "-"))!
    }
}

/// What a consumer that applies every page holds.
struct FeedReplica {
    private(set) var live: [UUID] = []
    private(set) var deleted: Set<UUID> = []
    private(set) var lastAnchor: String?

    mutating func apply(_ page: ChangeFeedPage) {
        for sample in page.changes.addedSamples {
            #expect(sample.sampleType == FeedHistory.steps, "only the type asked for")
            #expect(!live.contains(sample.uuid), "an object once")
            live.append(sample.uuid)
        }
        for object in page.changes.deletedObjects {
            live.removeAll { $0 == object.uuid }
            deleted.insert(object.uuid)
        }
        lastAnchor = page.newAnchor.stringValue
    }

    /// Whether it holds what `history` says the feed reports.
    func matches(_ history: FeedHistory) -> Bool {
        live == history.liveIDs && deleted == history.deleted
    }
}

/// The audit a stateful test ends with: the store's projections equal a
/// replay of its log.
func expectAuditPasses(_ store: HKHealthStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let disagreement = try await store.eventLog().checkProjections()
    #expect(disagreement == nil, "audit: the projections equal a replay", sourceLocation: sourceLocation)
}
