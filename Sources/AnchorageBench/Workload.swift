/// One row of the benchmark report: what is measured, in which unit, and
/// the goal the project set for it, if any.
///
/// Every row the bench prints is declared in this file, suite by suite, so
/// the goals can be read, reviewed and changed in one place; the suites
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

// MARK: The node over HTTP (suites feed, http and hostile)

extension Workload {
    static let feedPages = Workload(
        "change feed over loopback HTTP, JSON pages of 10,000 (vs in-process anchored queries)",
        "entries/s",
        goal: .valueAtLeast(100_000)
    )
    static let feedStream = Workload(
        "change feed over loopback HTTP, one NDJSON stream (vs in-process anchored queries)",
        "entries/s",
        goal: .valueAtLeast(100_000)
    )

    static func httpSaves(clients: Int) -> Workload {
        Workload(
            "HTTP saves: \(clients) in-process clients posting 10-sample batches, durable",
            "samples/s",
            goal: .valueAtLeast(50_000)
        )
    }

    static func wrkSaves(connections: Int) -> Workload {
        Workload(
            "HTTP saves from wrk (another process), \(connections) connections posting 10-sample batches with fresh uuids to an `anchorage serve` process, durable",
            "samples/s",
            goal: .valueAtLeast(50_000)
        )
    }

    static func wrkSaveLatency(connections: Int) -> Workload {
        Workload(
            "HTTP saves from wrk, \(connections) connections: 99th percentile latency",
            "ms",
            goal: .valueAtMost(50)
        )
    }

    static let httpReplicatedSaves = Workload(
        "HTTP saves answered once a replica holds them (serve --replica-wait; a second node follows live), same clients (vs one node alone)",
        "samples/s"
    )
    static let httpReplicatedSaturatedLatency = Workload(
        "HTTP saves answered once a replica holds them, 64 clients at once: 99th percentile latency minus one node alone's, same run (the replica applies each save again on the same 2 cores)",
        "ms"
    )
    static func httpSteadyLatency(rate: Int) -> Workload {
        Workload(
            "HTTP saves at a steady \(rate) posts of 10 a second (open loop), one node alone: 99th percentile latency",
            "ms"
        )
    }
    static func httpReplicatedSaveLatency(rate: Int) -> Workload {
        Workload(
            "HTTP saves at a steady \(rate) posts of 10 a second (open loop), answered once a replica holds them: 99th percentile latency minus one node alone's, same run",
            "ms",
            goal: .valueAtMost(5)
        )
    }
    static func httpReplicatedSteadyMedian(rate: Int) -> Workload {
        Workload(
            "HTTP saves at a steady \(rate) posts of 10 a second (open loop), answered once a replica holds them: median latency minus one node alone's, same run",
            "ms"
        )
    }
    static let httpSaveLatency = Workload(
        "HTTP saves: 99th percentile latency of one 10-sample post",
        "ms",
        goal: .valueAtMost(50)
    )
    static let hostileLatency = Workload(
        "hostile: p99 of 150 clients' 10-sample saves beside 50 hostile clients (vs alone), durable",
        "ms",
        goal: .ratioAtMost(2)
    )
    static let hostilePeakMemory = Workload(
        "hostile: the node's peak resident memory over both phases",
        "MB",
        goal: .valueAtMost(300)
    )
    static let hostileAnonymousMemory = Workload(
        "hostile: of which anonymous memory (heap and stacks), sampled every 50 ms beside the hostile clients",
        "MB"
    )
    static let hostileMappedMemory = Workload("hostile: of which the store's mapped pages, sampled likewise", "MB")
    static let hostileRequests = Workload(
        "hostile: requests the hostile clients completed or were cut off in",
        "requests"
    )
}

// MARK: Replication (suite sync)

extension Workload {
    static func syncPull(entries: Int) -> Workload {
        Workload(
            "sync: \(entries) entries A → B over loopback HTTP, durable on B with every index and view (vs in-process)",
            "entries/s",
            goal: .valueAtLeast(500_000)
        )
    }

    static let syncPeakMemory = Workload(
        "sync: B's peak resident memory, its mapped store pages included (goal < 200 MB)",
        "MB",
        goal: .valueAtMost(200)
    )
    static let syncAnonymousMemory = Workload("sync: B's peak anonymous memory (heap and stacks)", "MB")
    static let syncLiveMedian = Workload(
        "sync: live propagation, save on A → seen by a long-running anchored query on B, p50",
        "ms"
    )
    static let syncLiveTail = Workload("sync: live propagation, p99 over 1,000 saves", "ms", goal: .valueAtMost(50))
}

// MARK: Audit (suite audit)

extension Workload {
    static let auditVerify = Workload("audit: verify the hash chain and payload digests", "entries/s")
    static let auditCheck = Workload("audit: check every index and view against a replay (rolled back)", "entries/s")
    static let auditRebuild = Workload("audit: rebuild every index and view", "entries/s")
    static let export = Workload(
        "export: the log as JSON lines (anchorage export's writer, into memory)",
        "entries/s",
        goal: .valueAtLeast(300_000)
    )
    static let auditReplay = Workload("audit: replay into a new durable store (vs rebuild in place)", "entries/s")
}

// MARK: Many stores in one node (suite stores)

extension Workload {
    /// Issue 33's figures are for 100,000 stores; a smaller `--stores-count`
    /// says so in the row.
    private static func storesOf(_ count: Int) -> String {
        count >= 100_000 ? "\(count) stores" : "\(count) stores (issue 33: 100,000; --stores-count 100000, ~9 GB)"
    }

    static func storesCreate(count: Int) -> Workload {
        Workload(
            "stores: create \(storesOf(count)) in the registry, 1,000 to a NodeRegistry.createStores call in the bench process (as `anchorage stores create` does with its ids): one durable commit and one directory fsync a batch; baseline: 2,000 created one createStore each",
            "stores/s",
            goal: .valueAtLeast(1_000)
        )
    }

    static func storesFill(count: Int, samples: Int) -> Workload {
        Workload(
            "stores: fill each with \(samples) step samples, directly: an HKHealthStore per store in the bench process (its LMDB environment opened, one durable save, closed), 4 at a time",
            "stores/s"
        )
    }

    static func storesCreateAndFill(count: Int) -> Workload {
        Workload("stores: created and filled, end to end (the two rows above)", "stores/s", goal: .valueAtLeast(1_000))
    }

    static let storesIdleMemory = Workload(
        "stores: an `anchorage serve --stores` process's resident memory, no store open",
        "MB",
        goal: .valueAtMost(100)
    )
    static let storesIdleDescriptors = Workload("stores: its open file descriptors, no store open", "fds")

    static func storesOpenMemory(open: Int) -> Workload {
        Workload(
            "stores: its resident memory with \(open) stores open (one GET each, --max-open-stores 1000)",
            "MB",
            goal: .valueAtMost(1_000)
        )
    }

    static func storesOpenAnonymousMemory(open: Int) -> Workload {
        Workload("stores: of which anonymous memory (heap and stacks), \(open) stores open", "MB")
    }

    static func storesOpenDescriptors(open: Int) -> Workload {
        Workload(
            "stores: its open file descriptors with \(open) stores open (goal: 6 per open store, as docs/http-api.md counts them, + 100)",
            "fds",
            goal: .valueAtMost(Double(6 * open + 100))
        )
    }

    static let storesIdleThreads = Workload("stores: its threads, no store open", "threads")

    static func storesOpenThreads(open: Int) -> Workload {
        Workload(
            "stores: its threads with \(open) stores open, 3 s after the last request (an idle store's writer holds none)",
            "threads"
        )
    }

    static func storesColdMedian(count: Int) -> Workload {
        Workload(
            "stores: a GET to a cold store over loopback HTTP (opening it included), \(count) stores one after the other, p50",
            "ms"
        )
    }

    static func storesColdTail(count: Int) -> Workload {
        Workload("stores: the same, p99 over \(count) cold stores", "ms", goal: .valueAtMost(20))
    }

    static func storesSaves(clients: Int) -> Workload {
        Workload(
            "stores: \(clients) in-process clients, each on its own store of an in-process multi-store node, posting 10-sample batches, durable (vs suite http's workload: the same clients on one store)",
            "samples/s",
            goal: .ratioAtLeast(1)
        )
    }

    static let storesSaveLatency = Workload(
        "stores: 99th percentile latency of one of those posts (vs on one store)",
        "ms",
        goal: .valueAtMost(50)
    )

    /// Round `round` of the stores written over HTTP (issue 51).
    private static func overHTTP(_ round: Int, _ count: Int) -> String {
        "stores over HTTP, round \(round) (\(count) stores created, a token each, one sample each, 8 clients)"
    }

    static func storesHTTPFirstWrite(round: Int, count: Int) -> Workload {
        Workload("\(overHTTP(round, count)): the first write to a new store (it opens it), p50", "ms")
    }

    static func storesHTTPFirstWriteTail(round: Int, count: Int) -> Workload {
        Workload("\(overHTTP(round, count)): the same, p99", "ms", goal: .valueAtMost(20))
    }

    static func storesHTTPOpenMemory(round: Int, count: Int) -> Workload {
        Workload(
            "\(overHTTP(round, count)): resident memory after the writes, 1,000 stores open (goal: 100 MB + 1 MB a store)",
            "MB",
            goal: .valueAtMost(1_100)
        )
    }

    static func storesHTTPOpenAnonymous(round: Int, count: Int) -> Workload {
        Workload("\(overHTTP(round, count)): of which anonymous (heap, stacks)", "MB")
    }

    static func storesHTTPIdleMemory(round: Int, count: Int) -> Workload {
        Workload(
            "\(overHTTP(round, count)): resident memory once every store has closed idle",
            "MB",
            goal: .valueAtMost(100)
        )
    }

    static func storesHTTPIdleAnonymous(round: Int, count: Int) -> Workload {
        Workload("\(overHTTP(round, count)): of which anonymous", "MB")
    }

    static func storesHTTPColdReads(round: Int) -> Workload {
        Workload(
            "stores over HTTP, round \(round): a GET to each of 1,000 cold stores, 32 readers at once, p99",
            "ms",
            goal: .valueAtMost(50)
        )
    }
}

// MARK: A fleet on one machine (suite fleet)

/// The faults the fleet suite's rounds inflict on a store's primary.
enum FleetFault: String, CaseIterable, Sendable {
    case kill = "kill -9"
    case pause = "SIGSTOP"

    /// How soon writes must be acknowledged again (issue 53).
    var goal: Double { self == .kill ? 3 : 4 }
}

extension Workload {
    static func fleetLost(rounds: Int) -> Workload {
        Workload(
            "fleet: kill -9 and SIGSTOP of a primary, etcd's leader killed, etcd's majority lost, under 64 writing clients, \(rounds) rounds each (3 etcd + 3 nodes, lease 10 s): acknowledged writes lost",
            "writes",
            goal: .valueAtMost(0)
        )
    }
    static let fleetAcknowledged = Workload("fleet: writes acknowledged over those rounds", "writes")
    static let fleetSteadyRate = Workload(
        "fleet: 1-sample saves acknowledged (a replica holds each), 64 clients through every node, all up",
        "saves/s"
    )
    static func fleetResumeMedian(_ fault: FleetFault) -> Workload {
        Workload("fleet: writes acknowledged again after a primary's \(fault.rawValue), median of the rounds", "s")
    }
    static func fleetResumeP99(_ fault: FleetFault) -> Workload {
        Workload(
            "fleet: writes acknowledged again after a primary's \(fault.rawValue), 99th percentile of the rounds",
            "s",
            goal: .valueAtMost(fault.goal)
        )
    }
    static func fleetEtcdPrimaryChanges(rounds: Int) -> Workload {
        Workload(
            "fleet: store primaries changed over \(rounds) kills of etcd's leader and \(rounds) losses of its majority (5–60 s)",
            "changes",
            goal: .valueAtMost(0)
        )
    }
    static let fleetEtcdLeaderStall = Workload(
        "fleet: etcd's leader killed: from the kill to the next write acknowledged, 99th percentile of the rounds",
        "s"
    )
    static let fleetMajorityResume = Workload(
        "fleet: etcd's majority back (after 5–60 s without): to the next write acknowledged, the longest of the rounds",
        "s",
        goal: .valueAtMost(2)
    )
    static let fleetLongestAnswer = Workload(
        "fleet: the longest a writing client waited for an answer from a node not struck, over every round (forwarding deadline 12 s + 2 s)",
        "s",
        goal: .valueAtMost(14)
    )
    static let fleetCopiesFailingAudit = Workload(
        "fleet: copies failing audit verify, or whose digest differs, once healed",
        "copies",
        goal: .valueAtMost(0)
    )
    static func fleetReplaced(stores: Int) -> Workload {
        Workload(
            "fleet: a failed node's copies of \(stores) stores re-placed and re-replicated (4 nodes, lease 5 s, replace after 2 s): from the kill until no placement names it",
            "s"
        )
    }
    static func fleetReplacing(stores: Int) -> Workload {
        Workload(
            "fleet: … of which re-placing the \(stores) stores' copies: from when the node counts as lost (its lease ended, then 2 s) until no placement names it",
            "s",
            goal: .valueAtMost(5)
        )
    }
    static func fleetPrimarySpread(stores: Int, nodes: Int) -> Workload {
        Workload(
            "fleet: \(stores) stores placed 16 at a time on \(nodes) nodes (zones a, a, b, c): most minus fewest primaries a node leads, once settled (60 s at most)",
            "stores",
            goal: .valueAtMost(2)
        )
    }
    static func fleetPrimarySpreadAfterLoss(stores: Int) -> Workload {
        Workload(
            "fleet: … once the killed node's stores were promoted and re-placed (3 nodes left)",
            "stores",
            goal: .valueAtMost(2)
        )
    }
}

// MARK: Sealed stores (suite sealed): each against the same workload unsealed, in the same run

extension Workload {
    static let sealedBatchSaves = Workload(
        "sealed saves, batches of 1,000, durable (vs unsealed)",
        "samples/s",
        goal: .ratioAtLeast(0.9)
    )
    static let sealedSingleSaves = Workload(
        "sealed 1-sample saves from 64 callers, durable (vs unsealed)",
        "samples/s",
        goal: .ratioAtLeast(0.9)
    )
    static let sealedCatchUp = Workload(
        "sealed catch-up, anchored pages of 1,000 decoded (vs unsealed)",
        "samples/s",
        goal: .ratioAtLeast(0.75)
    )
    static let sealedStatistics = Workload(
        "sealed statistics: daily sums over 35 days (vs unsealed)",
        "queries/s",
        goal: .ratioAtLeast(0.9)
    )
    static let sealedDataFile = Workload(
        "sealed data file, 100,000 samples (vs unsealed)",
        "bytes",
        goal: .ratioAtMost(1.15)
    )
    static let sealedImport = Workload(
        "sealed import of a Health export, compaction included (vs unsealed)",
        "elements/s",
        goal: .ratioAtLeast(0.9)
    )
    static let sealedWrkSaves = Workload(
        "sealed HTTP saves from wrk, 10-sample posts, 16 connections, multi-store node (vs unsealed)",
        "samples/s",
        goal: .ratioAtLeast(0.9)
    )
    static let sealedColdOpenPKCS11 = Workload(
        "sealed store's cold open, data key unwrapped on a PKCS#11 token (SoftHSM2), p99",
        "ms",
        goal: .valueAtMost(30)
    )
}
