import Foundation

extension ReferenceStatistics {
    /// The populated buckets of a collection query, by bucket index (ST-36);
    /// with `range`, only the buckets in it.
    ///
    /// A sweep over the buckets in time order that holds only the samples
    /// reaching the current bucket and skips from a bucket with none to the
    /// one where the next sample starts: time and memory follow the buckets
    /// that have data (and the samples reaching them), never the seconds a
    /// sample spans. Each bucket sees its samples in their given order.
    package static func collection(
        _ samples: StatisticsSamples,
        grid: BucketGrid,
        type: HKQuantityType,
        options: HKStatisticsOptions,
        within range: ClosedRange<Int>? = nil
    ) -> [Int: HKStatistics] {
        var sweep = Sweep(samples)
        return sweep.buckets(grid: grid, type: type, options: options, within: range)
    }

    /// The sweep behind ``collection(_:grid:type:options:within:)``.
    ///
    /// Long samples make a run of buckets that all see the same samples,
    /// each spanning the whole bucket (thousands of 10-year samples under
    /// 100,000 one-second buckets). Such a bucket's values depend only on
    /// that set and on the bucket's length (every overlap is the bucket's
    /// own `end - start`), so they are evaluated once per set and length
    /// and reused: the same operations on the same operands, equal to the
    /// last bit, at a cost per bucket independent of how many samples
    /// cover it.
    package struct Sweep {
        package let samples: [StatisticsSample]
        /// Their sources by number.
        package let sources: [HKSource]
        /// Samples by start, ties by position.
        package let order: [Int]
        /// How many buckets were evaluated from their samples (the rest
        /// reused an evaluation): what the cost follows.
        package private(set) var evaluated = 0

        package init(_ samples: StatisticsSamples) {
            let all = samples.samples
            self.samples = all
            sources = samples.sources
            order = all.indices.sorted { (all[$0].start, $0) < (all[$1].start, $1) }
        }

        /// The samples reaching the current bucket, and what tells whether
        /// they all span it: the latest start and earliest end among them.
        private struct Active {
            var positions: [Int] = []
            var latestStart = -Double.infinity
            var earliestEnd = Double.infinity
            /// Changes whenever the set does.
            var version = 0

            mutating func add(_ position: Int, _ sample: StatisticsSample) {
                positions.append(position)
                latestStart = max(latestStart, sample.start)
                earliestEnd = min(earliestEnd, sample.end)
                version += 1
            }

            /// Drops the samples that ended before `time`.
            mutating func drop(endingBefore time: Double, in samples: [StatisticsSample]) {
                guard earliestEnd < time else { return }
                positions.removeAll { samples[$0].end < time }
                latestStart = positions.map { samples[$0].start }.max() ?? -.infinity
                earliestEnd = positions.map { samples[$0].end }.min() ?? .infinity
                version += 1
            }

            func spans(_ window: StatisticsWindow) -> Bool {
                latestStart <= window.start && earliestEnd >= window.end
            }
        }

        package mutating func buckets(
            grid: BucketGrid,
            type: HKQuantityType,
            options: HKStatisticsOptions,
            within range: ClosedRange<Int>?
        ) -> [Int: HKStatistics] {
            guard let first = order.first else { return [:] }
            var index = grid.index(containing: Date(timeIntervalSinceReferenceDate: samples[first].start))
            if let range { index = max(index, range.lowerBound) }
            var next = 0
            var active = Active()
            // Evaluations of the current set for buckets it spans, by length.
            var reusable: (version: Int, byLength: [Double: HKStatistics]) = (0, [:])
            var buckets: [Int: HKStatistics] = [:]
            var bucketStart = grid.start(of: index)
            while range.map({ index <= $0.upperBound }) ?? true {
                let bucketEnd = grid.start(of: index + 1)
                let window = StatisticsWindow(
                    start: bucketStart.timeIntervalSinceReferenceDate,
                    end: bucketEnd.timeIntervalSinceReferenceDate,
                    closed: false
                )
                while next < order.count && samples[order[next]].start < window.end {
                    active.add(order[next], samples[order[next]])
                    next += 1
                }
                active.drop(endingBefore: window.start, in: samples)
                if active.positions.isEmpty {
                    guard next < order.count else { break }
                    let later = grid.index(containing: Date(timeIntervalSinceReferenceDate: samples[order[next]].start))
                    index = max(index + 1, later)
                    bucketStart = grid.start(of: index)
                    continue
                }
                if reusable.version != active.version { reusable = (active.version, [:]) }
                let spanned = active.spans(window)
                let length = window.end - window.start
                if spanned, let same = reusable.byLength[length] {
                    buckets[index] = same.moved(
                        start: Date(timeIntervalSinceReferenceDate: window.start),
                        end: Date(timeIntervalSinceReferenceDate: window.end)
                    )
                } else {
                    evaluated += 1
                    active.positions.sort()
                    let statistics = ReferenceStatistics.statistics(
                        active.positions.map { samples[$0] },
                        sources: sources,
                        in: window,
                        type: type,
                        options: options
                    )
                    if let statistics {
                        buckets[index] = statistics
                        if spanned { reusable.byLength[length] = statistics }
                    }
                }
                index += 1
                bucketStart = bucketEnd
            }
            return buckets
        }
    }
}
