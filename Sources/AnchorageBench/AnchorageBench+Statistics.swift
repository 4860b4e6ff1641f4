@_spi(Benchmarks) import Anchorage
import Foundation

extension AnchorageBench {
    /// Ingest with and without the views, and the three collection
    /// queries through the views and through the reference evaluator.
    func runStatisticsBenchmarks(work: URL, report: inout Report) async throws {
        let bench = StatisticsBenchmarks(workDirectory: work, minutes: statisticsMinutes)
        let queries = StatisticsBenchmarks.queries()
        let single = StatisticsBenchmarks.singleQuery()
        let measured = try await eachRun { run in
            progress("statistics ingest without views, run \(run)/\(runs)")
            let bare = try await bench.ingest(run: run, views: false)
            await bare.store.close()
            try? FileManager.default.removeItem(at: bare.directory)
            progress("statistics ingest with views, run \(run)/\(runs)")
            let full = try await bench.ingest(run: run, views: true)
            let footprint = try full.store.statisticsViewsFootprint()
            var queryTimes: [(view: Double, reference: Double)] = []
            for query in queries {
                progress("statistics query: \(query.name), run \(run)/\(runs)")
                let (viewed, fromViews) = try await StatisticsBenchmarks.viewMilliseconds(
                    query.descriptor,
                    store: full.store
                )
                let (referenced, fromReference) = try await StatisticsBenchmarks.referenceMilliseconds(
                    query.descriptor,
                    store: full.store
                )
                try Self.check(fromViews, against: fromReference, query: query.name)
                queryTimes.append((viewed, referenced))
            }
            progress("statistics query: \(single.name), run \(run)/\(runs)")
            let (singleViewed, fromViews) = try await StatisticsBenchmarks.milliseconds {
                try await single.descriptor.result(for: full.store)
            }
            let (singleReferenced, fromReference) = try await StatisticsBenchmarks.milliseconds {
                try await single.descriptor.referenceResult(for: full.store)
            }
            try Self.check(
                [fromViews].compactMap { $0 },
                against: [fromReference].compactMap { $0 },
                query: single.name
            )
            await full.store.close()
            try? FileManager.default.removeItem(at: full.directory)
            return (
                withoutViews: bare.seconds,
                withViews: full.seconds,
                viewBytes: Double(footprint.bytes),
                queries: queryTimes,
                singleView: singleViewed,
                singleReference: singleReferenced
            )
        }
        let samples = 2 * statisticsMinutes + statisticsMinutes / 60
        report.add(
            .statisticsIngest(samples: samples),
            anchorage: measured.map(\.withViews),
            baseline: measured.map(\.withoutViews)
        )
        report.add(.statisticsViewBytes(samples: samples), anchorage: measured.map { $0.viewBytes / Double(samples) })
        for (position, query) in queries.enumerated() {
            report.add(
                .statisticsQuery(query.name, first: position == 0),
                anchorage: measured.map { $0.queries[position].view },
                baseline: measured.map { $0.queries[position].reference }
            )
        }
        report.add(
            .statisticsQuery(single.name),
            anchorage: measured.map(\.singleView),
            baseline: measured.map(\.singleReference)
        )
        report.add(.statisticsWarm(queries[0].name), anchorage: measured.map { $0.queries[0].view })
    }

    /// Stops the run when the two paths disagree: a fast wrong answer is no result.
    private static func check(
        _ viewed: HKStatisticsCollection,
        against reference: HKStatisticsCollection,
        query: String
    ) throws {
        try check(viewed.statistics(), against: reference.statistics(), query: query)
    }

    private static func check(_ a: [HKStatistics], against b: [HKStatistics], query: String) throws {
        func numbers(_ statistics: HKStatistics) -> [Double?] {
            let unit =
                statistics.quantityType == StatisticsBenchmarks.steps
                ? HKUnit.count() : HKUnit.count().unitDivided(by: .minute())
            return [
                statistics.sumQuantity(), statistics.averageQuantity(), statistics.minimumQuantity(),
                statistics.maximumQuantity(),
            ]
            .map { $0?.doubleValue(for: unit) }
        }
        let agree =
            a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                x.startDate == y.startDate
                    && zip(numbers(x), numbers(y)).allSatisfy { p, q in
                        guard let p, let q else { return p == nil && q == nil }
                        return abs(p - q) <= 1e-9 * max(1, abs(p), abs(q))
                    }
            }
        guard agree else {
            throw StatisticsMismatch(description: "views and reference evaluator disagree on \(query)")
        }
    }

    struct StatisticsMismatch: Error, CustomStringConvertible {
        var description: String
    }
}
