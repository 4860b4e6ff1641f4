import Anchorage
import AnchorageLog
import AnchorageServer
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
        let (node, port, serving) = try await Self.startNode(at: directory)
        let a = HKHealthStore(directory: directory)

        var overHTTP: [Double] = []
        var inProcess: [Double] = []
        var peaks: [Double] = []
        var anonymous: [Double] = []
        for run in 1...min(runs, 3) {
            progress("sync: pull \(count) entries A → B over loopback HTTP, run \(run)")
            let child = try await Self.pullInChild(
                peer: "http://127.0.0.1:\(port)",
                store: work.appendingPathComponent("sync-b-\(run)")
            )
            guard child.applied == count else {
                throw BenchFailure(message: "the child pulled \(child.applied) entries of \(count)")
            }
            overHTTP.append(Double(child.applied) / child.seconds)
            peaks.append(Double(child.peakBytes) / 1_000_000)
            anonymous.append(Double(child.anonymousBytes) / 1_000_000)
            progress("sync: the same pull in-process, run \(run)")
            inProcess.append(
                try await Self.pullInProcess(from: try a.eventLog(), into: work.appendingPathComponent("sync-c-\(run)"))
            )
        }
        progress("sync: live propagation, 1,000 saves")
        let latencies = try await Self.liveLatencies(port: port, a: a, work: work)
        await a.close()
        await node.stop()
        try await serving.value
        await node.close()
        try? FileManager.default.removeItem(at: directory)

        report.add(
            name:
                "sync: \(count) entries A → B over loopback HTTP, durable on B with every index and view (vs in-process)",
            unit: "entries/s",
            anchorage: overHTTP,
            baseline: inProcess,
            goal: .valueAtLeast(500_000)
        )
        report.add(
            name: "sync: B's peak resident memory, its mapped store pages included (goal < 200 MB)",
            unit: "MB",
            anchorage: peaks,
            baseline: [],
            goal: .valueAtMost(200)
        )
        report.add(
            name: "sync: B's peak anonymous memory (heap and stacks)",
            unit: "MB",
            anchorage: anonymous,
            baseline: []
        )
        report.add(
            name: "sync: live propagation, save on A → seen by a long-running anchored query on B, p50",
            unit: "ms",
            anchorage: [Self.percentile(latencies, 0.5)],
            baseline: []
        )
        report.add(
            name: "sync: live propagation, p99 over 1,000 saves",
            unit: "ms",
            anchorage: [Self.percentile(latencies, 0.99)],
            baseline: [],
            goal: .valueAtMost(50)
        )
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
            peak = max(peak, statusBytes("VmHWM:", process: pid))
            anonymous = max(anonymous, statusBytes("RssAnon:", process: pid))
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
        let start = ContinuousClock.now
        let summary = try await replicator.sync(.pull)
        let seconds = (ContinuousClock.now - start).seconds
        await b.close()
        try await transport.shutdown()
        print(summary.pulled?.applied ?? 0, seconds)
    }

    /// The same pull as the child's, in this process through the in-memory
    /// transport: the cost of applying, without HTTP.
    static func pullInProcess(from log: EventLog, into directory: URL) async throws -> Double {
        let b = HKHealthStore(directory: directory)
        let replicator = PeerReplicator(log: try b.eventLog(), peer: InMemoryTransport(serving: log))
        let start = ContinuousClock.now
        let applied = try await replicator.sync(.pull).pulled?.applied ?? 0
        let rate = Double(applied) / (ContinuousClock.now - start).seconds
        await b.close()
        try? FileManager.default.removeItem(at: directory)
        return rate
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
            let start = ContinuousClock.now
            try await a.save(sample)
            seen: while let result = try await iterator.next() {
                if result.addedSamples.contains(where: { $0.uuid == sample.uuid }) { break seen }
            }
            latencies.append((ContinuousClock.now - start).seconds * 1_000)
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
