/// One row of the benchmark report: what is measured, in which unit, and
/// the goal the project set for it, if any.
///
/// Every row the bench prints is declared here and in `Workload+…` (the
/// node over HTTP, the fleet, sealed stores), suite by suite, so the goals
/// can be read, reviewed and changed in a few places; the suites
/// only measure and hand their runs to ``Report/add(_:anchorage:baseline:)``:
///
/// ```swift
/// report.add(.auditVerify, anchorage: measured.map(\.verify))
/// ```
///
/// A name says what the baseline is when there is one ("vs …"); the
/// baseline is raw LMDB otherwise.
struct Workload: Sendable {
    let name: String
    let unit: String
    let goal: Report.Goal?

    init(_ name: String, _ unit: String, goal: Report.Goal? = nil) {
        self.name = name
        self.unit = unit
        self.goal = goal
    }
}

// MARK: The event log (suite log)

extension Workload {
    static let rawSingleEntryTransactions = Workload("raw LMDB, 1 entry per durable transaction", "entries/s")

    static func append(batch: Int) -> Workload {
        Workload("append, batches of \(batch), 1 caller, durable", "entries/s", goal: .ratioAtLeast(0.5))
    }

    static func appendZerosAhead(batch: Int) -> Workload {
        Workload("append, batches of \(batch), 1 caller, durable: zeros kept ahead vs none", "entries/s")
    }

    static let catchUp = Workload(
        "catch-up read from anchor 0 (decoded)",
        "entries/s",
        goal: .valueAtLeast(2_000_000)
    )

    static let dataFileSize = Workload("data file size", "bytes")

    static func concurrentAppends(batch: Int) -> Workload {
        Workload("append, batches of \(batch), 8 concurrent callers, durable", "entries/s")
    }

    static let groupCommit = Workload(
        "append, 1-entry batches, 64 concurrent callers, durable (group commit)",
        "entries/s"
    )
}

// MARK: The model (suite model)

extension Workload {
    static let createSamples = Workload("create quantity samples (vs Foundation UUID() alone)", "samples/s")
    static let encodePayloads = Workload(
        "encode quantity samples to payloads (1 core)",
        "samples/s",
        goal: .valueAtLeast(5_000_000)
    )
    static let decodePayloads = Workload(
        "decode payloads to quantity samples (1 core)",
        "samples/s",
        goal: .valueAtLeast(5_000_000)
    )
    static let unitConversion = Workload("unit conversion kg → lb", "conversions/s")
    static let predicateEvaluation = Workload("predicate evaluation (date range AND quantity)", "samples/s")
}

// MARK: The store (suite store)

extension Workload {
    static let storeSave = Workload(
        "store: save quantity samples, batches of 1,000, 1 caller, durable, all indices (vs raw LMDB, same rows)",
        "samples/s",
        goal: .valueAtLeast(300_000)
    )
    static let storeConcurrentSaves = Workload(
        "store: save, batches of 1,000, 8 concurrent callers, durable (vs raw LMDB, same rows)",
        "samples/s"
    )
    static let storeSingleSaves = Workload(
        "store: save, 1-sample batches, 64 concurrent callers, durable (vs the log alone: 1-entry appends, 64 callers)",
        "samples/s",
        goal: .ratioAtLeast(0.5)
    )
    static let storeSingleSavesGrouping = Workload(
        "store: log entries per durable transaction in those 1-sample saves (vs the log alone's appends)",
        "entries"
    )
    static let storeRebuild = Workload("store: rebuild every index from the log", "entries/s")

    static func storeCatchUp(samples: Int) -> Workload {
        Workload(
            "store: anchored catch-up of \(samples) samples, decoded into objects",
            "samples/s",
            goal: .valueAtLeast(1_000_000)
        )
    }

    static func storeQuery(samples: Int) -> Workload {
        Workload("store: date-range sample query, 1,000 of \(samples) samples (median of 20)", "ms")
    }

    static let storeQueryRows = Workload("store: index rows read by that query", "rows")
}

// MARK: Statistics (suite statistics)

extension Workload {
    static func statisticsIngest(samples: Int) -> Workload {
        Workload(
            "statistics: ingest \(samples) samples (minute steps, 2 sources, hourly heart rate), with views vs without",
            "s",
            goal: .ratioAtMost(2)
        )
    }

    /// A statistics query answered from the views beside the reference
    /// evaluator. The first collection query of
    /// ``StatisticsBenchmarks/queries()``, a year of daily sums, must take at
    /// most 1 % of the reference evaluator's time.
    static func statisticsQuery(_ query: String, first: Bool = false) -> Workload {
        Workload("statistics: \(query), views vs reference evaluator", "ms", goal: first ? .ratioAtMost(0.01) : nil)
    }

    static func statisticsViewBytes(samples: Int) -> Workload {
        Workload(
            "statistics: bytes of the views' pages per sample after that ingest (\(samples) samples)",
            "B",
            goal: .valueAtMost(400)
        )
    }

    static func statisticsWarm(_ query: String) -> Workload {
        Workload("statistics: \(query), views, warm", "ms", goal: .valueAtMost(2))
    }
}

// MARK: Import (suites import and reading)

extension Workload {
    static let xmlReading = Workload(
        "import: XML reading alone (element batches, no store) vs libxml2 SAX with empty callbacks (C)",
        "elements/s",
        goal: .valueAtLeast(1_000_000)
    )

    static func importRate(megabytes: Int) -> Workload {
        Workload(
            "import: \(megabytes) MB export.xml, records per second, committed as `anchorage import` commits (data flushed, meta page at close), all indices and views",
            "records/s",
            goal: .valueAtLeast(100_000)
        )
    }

    static let importPeakMemory = Workload(
        "import: peak resident memory, mapped store pages included (1 GB export: goal < 300 MB)",
        "MB"
    )
    static let importAnonymousMemory = Workload(
        "import: peak anonymous memory (heap and stacks; the rest of RSS is the store's mapped file)",
        "MB",
        goal: .valueAtMost(100)
    )

    static func importProjections(megabytes: Int) -> Workload {
        Workload(
            "import: \(megabytes) MB export.xml, projections.mdb's size over data.mdb's (indices and views beside the log)",
            "×",
            goal: .valueAtMost(3)
        )
    }

    static let oldImportRate = Workload(
        "import: ten years of day-long records in the iOS 8 form (Scripts/generate-old-health-export), records per second, committed as `anchorage import` commits",
        "records/s",
        goal: .valueAtLeast(100_000)
    )

    static let oldImportPeakMemory = Workload(
        "import: that import's peak resident memory, mapped store pages included",
        "MB",
        goal: .valueAtMost(100)
    )

    static let oldImportProjections = Workload(
        "import: that store's projections.mdb's size over data.mdb's",
        "×",
        goal: .valueAtMost(3)
    )
}

// MARK: Routes, heartbeats and ECGs (suite series)

extension Workload {
    static let seriesImportRate = Workload(
        "series: import of a year with 300 route files and 50 ECG files (Scripts/generate-health-export --side-files), records per second, durable",
        "records/s",
        goal: .valueAtLeast(100_000)
    )
    static let seriesImportAnonymousMemory = Workload(
        "series: that import's peak anonymous memory",
        "MB",
        goal: .valueAtMost(100)
    )
    static let routeQuery = Workload(
        "series: a 1-hour route (3,600 locations) read with HKWorkoutRouteQuery, median of 50",
        "ms",
        goal: .valueAtMost(2)
    )
    static let electrocardiogramQuery = Workload(
        "series: an ECG's 15,360 voltages read with HKElectrocardiogramQuery, median of 50",
        "ms",
        goal: .valueAtMost(2)
    )
    static let seriesFeedPage = Workload(
        "series: a feed page of 10,000 changes, one in ten a 1-hour route or a 30 s ECG, as JSON (bound: 4 MB)",
        "bytes",
        goal: .valueAtMost(4_000_000)
    )
    static let plainSavesBesideSeries = Workload(
        "series: plain saves, batches of 1,000, durable, a route or an ECG saved before each (vs a small sample of another type saved before each)",
        "samples/s",
        goal: .ratioAtLeast(0.9)
    )
    static let plainSavesBesideOtherType = Workload(
        "series: plain saves, batches of 1,000, durable, a small sample of another type saved before each (vs one of the same type): what a second type costs",
        "samples/s"
    )
}
