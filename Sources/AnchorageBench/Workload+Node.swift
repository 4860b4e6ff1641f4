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

    static func wrkSaves(_ shape: WriteShape, connections: Int) -> Workload {
        Workload(
            "HTTP saves from wrk (another process) vs PostgreSQL from pgbench (same rows, same run), \(shape.name), \(connections) connections, durable",
            "samples/s",
            goal: .ratioAtLeast(1.5)
        )
    }

    /// The goal (issue 54) is at 64 connections; at 16 the row is for reading.
    static func wrkSaveLatency(_ shape: WriteShape, connections: Int) -> Workload {
        Workload(
            "HTTP saves from wrk vs PostgreSQL's transactions, \(shape.name), \(connections) connections: 99th percentile latency",
            "ms",
            goal: connections >= 64 ? .valueAtMost(50) : nil
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

    static func storeUpdatesTail(stores: Int, rate: Int) -> Workload {
        Workload(
            "store updates: a consumer of \(stores) stores, \(rate) saves/s to 1,000 of them: p99 from a save's answer to the consumer's page naming its store",
            "ms",
            goal: .valueAtMost(200)
        )
    }

    static func storeUpdatesMedian(stores: Int, rate: Int) -> Workload {
        Workload(
            "store updates: a consumer of \(stores) stores, \(rate) saves/s to 1,000 of them: median from a save's answer to the consumer hearing of it",
            "ms"
        )
    }

    static func storeUpdatesBusyCPU(stores: Int, rate: Int, baseline: Int) -> Workload {
        Workload(
            "store updates: the node's CPU at \(rate) saves/s with a consumer following, \(stores) stores (baseline: \(baseline) stores)",
            "ms/s",
            goal: .ratioAtMost(1.25)
        )
    }

    static func storeUpdatesQuietCPU(stores: Int, baseline: Int) -> Workload {
        Workload(
            "store updates: the node's CPU with the consumer waiting and nothing saved, \(stores) stores (baseline: \(baseline) stores)",
            "ms/s",
            goal: .valueAtMost(5)
        )
    }
}
