import Anchorage
import AnchorageLog
import AnchorageSync
import Foundation

extension AnchorageBench {
    /// Replication: a store of `samples` step samples served by a node on
    /// loopback, pulled into an empty, durable store in a child process
    /// (entries/s and the child's peak memory), against the same pull
    /// in-process without HTTP; then live propagation, a save on one node
    /// until a long-running anchored query on the other sees it.
    func runSyncBenchmarks(work: URL, report: inout Report) async throws {
        let filled = try await filledStore("sync-a", in: work, for: "sync (on A)")
        let (directory, count) = (filled.directory, filled.count)
        await filled.store.close()
        let node = try await BenchNode.start(at: directory)
        let a = HKHealthStore(directory: directory)

        let measured = try await eachRun(atMost: 3) { run in
            progress("sync: pull \(count) entries A → B over loopback HTTP, run \(run)")
            let child = try await Self.pullInChild(
                peer: "http://127.0.0.1:\(node.port)",
                store: work.appendingPathComponent("sync-b-\(run)")
            )
            guard child.applied == count else {
                throw BenchFailure(message: "the child pulled \(child.applied) entries of \(count)")
            }
            progress("sync: the same pull in-process, run \(run)")
            return (
                overHTTP: Double(child.applied) / child.seconds,
                peak: Double(child.peakBytes) / 1_000_000,
                anonymous: Double(child.anonymousBytes) / 1_000_000,
                inProcess: try await Self.pullInProcess(
                    from: try a.eventLog(),
                    into: work.appendingPathComponent("sync-c-\(run)")
                )
            )
        }
        progress("sync: live propagation, 1,000 saves")
        let latencies = try await Self.liveLatencies(port: node.port, a: a, work: work)
        await a.close()
        try await node.stop()
        try? FileManager.default.removeItem(at: directory)

        report.add(.syncPull(entries: count), anchorage: measured.map(\.overHTTP), baseline: measured.map(\.inProcess))
        report.add(.syncPeakMemory, anchorage: measured.map(\.peak))
        report.add(.syncAnonymousMemory, anchorage: measured.map(\.anonymous))
        report.add(.syncLiveMedian, anchorage: [Self.percentile(latencies, 0.5)])
        report.add(.syncLiveTail, anchorage: [Self.percentile(latencies, 0.99)])
    }

    struct ChildPull {
        var applied: Int
        var seconds: Double
        var peakBytes: Int
        var anonymousBytes: Int
    }

    /// Runs this executable as `--sync-child-store … --sync-child-peer …`,
    /// sampling its memory until it exits.
    static func pullInChild(peer: String, store: URL) async throws -> ChildPull {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--sync-child-store", store.path, "--sync-child-peer", peer]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let pid = "\(process.processIdentifier)"
        var peak = 0
        var anonymous = 0
        while process.isRunning {
            peak = max(peak, ProcessMemory.statusBytes("VmHWM:", process: pid))
            anonymous = max(anonymous, ProcessMemory.statusBytes("RssAnon:", process: pid))
            try await Task.sleep(for: .milliseconds(50))
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, fields.count == 2, let applied = Int(fields[0]),
            let seconds = Double(fields[1])
        else { throw BenchFailure(message: "the sync child failed: \(text)") }
        try? FileManager.default.removeItem(at: store)
        return ChildPull(applied: applied, seconds: seconds, peakBytes: peak, anonymousBytes: anonymous)
    }

    /// The child's work: pull everything from `peer` into a new durable
    /// store; prints the entries applied and the seconds taken.
    static func runSyncChild(store: String, peer: String) async throws {
        let b = HKHealthStore(directory: URL(fileURLWithPath: store))
        let transport = try HTTPPeerTransport(url: URL(string: peer)!, token: nil)
        let replicator = PeerReplicator(log: try b.eventLog(), peer: transport)
        let (seconds, summary) = try await timed { try await replicator.sync(.pull) }
        await b.close()
        try await transport.shutdown()
        print(summary.pulled?.applied ?? 0, seconds)
    }

    /// The same pull as the child's, in this process through the in-memory
    /// transport: the cost of applying, without HTTP.
    static func pullInProcess(from log: EventLog, into directory: URL) async throws -> Double {
        let b = HKHealthStore(directory: directory)
        let replicator = PeerReplicator(log: try b.eventLog(), peer: InMemoryTransport(serving: log))
        let (seconds, summary) = try await timed { try await replicator.sync(.pull) }
        await b.close()
        try? FileManager.default.removeItem(at: directory)
        return Double(summary.pulled?.applied ?? 0) / seconds
    }

    /// B follows A over HTTP; each save on A is timed until B's
    /// long-running anchored query reports it.
    static func liveLatencies(port: Int, a: HKHealthStore, work: URL) async throws -> [Double] {
        let directory = work.appendingPathComponent("sync-live")
        let b = HKHealthStore(directory: directory)
        let transport = try HTTPPeerTransport(url: URL(string: "http://127.0.0.1:\(port)")!, token: nil)
        let replicator = PeerReplicator(log: try b.eventLog(), peer: transport)
        try await replicator.sync(.pull)
        let following = Task { await replicator.follow(.pull) }
        let updates = HKAnchoredObjectQueryDescriptor(
            predicates: [.quantitySample(type: StoreBenchmarks.steps)],
            anchor: try b.currentAnchor()
        ).results(for: b)
        var iterator = updates.makeAsyncIterator()
        var latencies: [Double] = []
        for index in 0..<1_000 {
            let sample = StoreBenchmarks.makeSamples(1, first: 2_000_000 + index)[0]
            let (seconds, _) = try await timed {
                try await a.save(sample)
                while let result = try await iterator.next() {
                    if result.addedSamples.contains(where: { $0.uuid == sample.uuid }) { return }
                }
            }
            latencies.append(seconds * 1_000)
        }
        following.cancel()
        await following.value
        try await transport.shutdown()
        await b.close()
        try? FileManager.default.removeItem(at: directory)
        return latencies
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}
