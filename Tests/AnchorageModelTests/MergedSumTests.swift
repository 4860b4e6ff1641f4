import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

@Suite("The merged sum (ST-24) over many overlapping samples", .ownThread)
struct MergedSumTests {
    /// The merged sum in its plainest form: cut the window at every
    /// boundary; each piece adds, in the order they started, the samples of
    /// the highest rank covering it, prorated; an instant counts unless a
    /// higher rank covers it. The same additions in the same order as
    /// ``ReferenceStatistics/mergedSum(_:in:)``, so the two agree bit for bit.
    static func plainMergedSum(_ samples: [StatisticsSample], in window: StatisticsWindow) -> Double {
        var events: [(time: Double, kind: Int, sample: Int)] = []
        for (position, sample) in samples.enumerated() {
            if sample.isInstant {
                if window.contains(sample) { events.append((sample.start, 2, position)) }
                continue
            }
            let start = max(sample.start, window.start)
            let end = min(sample.end, window.end)
            guard end > start else { continue }
            events.append((start, 1, position))
            events.append((end, 0, position))
        }
        events.sort { ($0.time, $0.kind, $0.sample) < ($1.time, $1.kind, $1.sample) }
        var active: [Int] = []  // in the order they started
        var total = 0.0
        var previous: Double?
        for event in events {
            if let previous, event.time > previous, let top = active.map({ samples[$0].rank }).min() {
                for position in active where samples[position].rank == top {
                    let sample = samples[position]
                    total += sample.value * (event.time - previous) / (sample.end - sample.start)
                }
            }
            previous = event.time
            switch event.kind {
            case 1: active.append(event.sample)
            case 0: active.removeAll { $0 == event.sample }
            default:
                if !active.contains(where: { samples[$0].rank < samples[event.sample].rank }) {
                    total += samples[event.sample].value
                }
            }
        }
        return total
    }

    @Test(
        "ST-24: equal bit for bit to the plain form, with thousands of samples ending together, ties and instants",
        arguments: [31, 32, 33] as [UInt64]
    )
    func agreesWithThePlainForm(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let bundles = ["com.example.a", "com.example.b", "com.example.c", "com.example.d"]
        let ranking = SourceRanking(priority: ["com.example.b"], firstSeen: ["com.example.a": 1, "com.example.c": 2])
        for round in 0..<20 {
            // Few distinct times, so that many samples start and end together.
            let times = (0..<Int.random(in: 2...12, using: &random)).map { _ in
                Double(Int.random(in: 0...1_000, using: &random))
            }
            let count = round % 5 == 0 ? 3_000 : Int.random(in: 1...200, using: &random)
            var builder = StatisticsSamplesBuilder(ranking: ranking)
            for seq in 0..<count {
                let start = times.randomElement(using: &random)!
                let end = Int.random(in: 0..<10, using: &random) == 0 ? start : times.randomElement(using: &random)!
                let bundle = bundles.randomElement(using: &random)!
                builder.append(
                    start: min(start, end),
                    end: max(start, end),
                    value: Double(Int.random(in: 1...100_000, using: &random)) / 7,
                    seq: UInt64(seq + 1),
                    source: HKSource(name: bundle, bundleIdentifier: bundle),
                    userEntered: Int.random(in: 0..<20, using: &random) == 0
                )
            }
            let samples = builder.build().samples
            let bounds = [
                Double.random(in: -10...1_010, using: &random), Double.random(in: -10...1_010, using: &random),
            ]
            let window = StatisticsWindow(start: bounds.min()!, end: bounds.max()!, closed: round % 2 == 0)
            let fast = ReferenceStatistics.mergedSum(samples, in: window)
            let plain = Self.plainMergedSum(samples, in: window)
            #expect(fast.bitPattern == plain.bitPattern, "round \(round): \(fast) vs \(plain)")
        }
    }

    @Test(
        "ST-24: the builder's rank numbers order samples as their sources' ranks do, and its table names each sample's source",
        arguments: [41, 42] as [UInt64]
    )
    func builderKeepsTheRankOrder(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let bundles = (0..<9).map { "com.example.\($0)" }
        let ranking = SourceRanking(
            priority: ["com.example.4", "com.example.1"],
            firstSeen: ["com.example.0": 5, "com.example.2": 3, "com.example.3": 3, "com.example.5": .min]
        )
        var builder = StatisticsSamplesBuilder(ranking: ranking)
        var given: [(bundle: String, userEntered: Bool)] = []
        for seq in 0..<300 {
            let bundle = bundles.randomElement(using: &random)!
            let userEntered = Int.random(in: 0..<8, using: &random) == 0
            given.append((bundle, userEntered))
            builder.append(
                start: Double(seq),
                end: Double(seq + 1),
                value: 1,
                seq: UInt64(seq + 1),
                source: HKSource(name: bundle, bundleIdentifier: bundle),
                userEntered: userEntered
            )
        }
        let built = builder.build()
        #expect(built.samples.count == given.count)
        for (a, sample) in built.samples.enumerated() {
            #expect(built.sources[Int(sample.source)].bundleIdentifier == given[a].bundle)
            let rankA = ranking.rank(bundle: given[a].bundle, userEntered: given[a].userEntered)
            for b in stride(from: a % 7, to: built.samples.count, by: 7) {
                let rankB = ranking.rank(bundle: given[b].bundle, userEntered: given[b].userEntered)
                #expect((sample.rank < built.samples[b].rank) == (rankA < rankB), "\(given[a]) \(given[b])")
                #expect((sample.rank == built.samples[b].rank) == (rankA == rankB), "\(given[a]) \(given[b])")
            }
        }
    }
}
