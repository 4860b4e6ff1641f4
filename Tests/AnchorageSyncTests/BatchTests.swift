import AnchorageCore
import AnchorageLog
import AnchorageSync
import AnchorageTesting
import Crypto
import Foundation
import Synchronization
import Testing

/// Bad batches and bad peers: rejected or timed out with a clear error,
/// nothing of the bad batch applied, and sync resumes afterwards.
@Suite("Replication batches")
struct BatchTests {
    /// Two logs: `a` with `count` entries (saves and deletes), `b` empty.
    static func withLogs(count: Int = 40, _ body: (EventLog, EventLog) async throws -> Void) async throws {
        try await withTemporaryDirectories(2) { directories in
            var configuration = EventLog.Configuration()
            configuration.durability = .none
            let a = try EventLog.open(at: directories[0], configuration: configuration)
            let b = try EventLog.open(at: directories[1], configuration: configuration)
            var events: [LogEvent] = []
            var ids: [UUID] = []
            for index in 0..<count {
                if index % 7 == 6, let id = ids.popLast() {
                    events.append(.delete(id: id, kind: EntryKind(rawValue: 3)))
                } else {
                    let id = UUID()
                    ids.append(id)
                    events.append(.save(id: id, kind: EntryKind(rawValue: 3), payload: Array("payload \(index)".utf8)))
                }
            }
            try await a.append(events)
            do {
                try await body(a, b)
                await a.close()
                await b.close()
            } catch {
                await a.close()
                await b.close()
                throw error
            }
        }
    }

    static func pullBytes(from a: EventLog, for b: EventLog, since: UInt64 = 0, max: Int = 1_000) throws -> [UInt8] {
        try SyncEndpoint(log: a).pull(
            PullRequest(
                incarnation: a.incarnation,
                since: since,
                maxEntries: max,
                maxBytes: 1 << 20,
                versionVector: try b.versionVector()
            )
        )
    }

    /// Replaces the batch's trailing digest so that only deeper checks can
    /// catch a change.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        let body = Array(bytes.dropLast(32))
        return body + Array(SHA256.hash(data: body))
    }

    @Test("A batch round-trips: every entry arrives with its dot, link and payload")
    func roundTrip() async throws {
        try await Self.withLogs { a, b in
            let batch = try EntryBatch(decoding: try Self.pullBytes(from: a, for: b))
            let original = try a.entries(after: nil, limit: 100).entries
            #expect(batch.entries == original)
            #expect(batch.through == a.head.seq && !batch.hasMore && batch.from == 0)
            let receipt = try await SyncEndpoint(log: b).push(batch.encoded())
            #expect(receipt.applied == original.count)
            #expect(try b.versionVector() == a.versionVector())
        }
    }

    @Test("Truncated batches are refused at every length, and nothing is applied")
    func truncated() async throws {
        try await Self.withLogs { a, b in
            let bytes = try Self.pullBytes(from: a, for: b)
            for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
                await expectSyncError(.malformedBatch) {
                    _ = try await SyncEndpoint(log: b).push(Array(bytes.prefix(length)))
                }
            }
            #expect(b.head.seq == 0)
            // Sync resumes afterwards.
            try await PeerReplicator(log: b, peer: InMemoryTransport(serving: a)).sync(.pull)
            #expect(try b.versionVector() == a.versionVector())
        }
    }

    @Test("Damaged bytes are refused wherever they are, even with a recomputed batch digest (mis-hashed entries)")
    func damaged() async throws {
        try await Self.withLogs { a, b in
            let bytes = try Self.pullBytes(from: a, for: b)
            var random = SeededGenerator(seed: 5)
            for _ in 0..<200 {
                var changed = bytes
                let position = Int.random(in: 0..<bytes.count, using: &random)
                changed[position] ^= UInt8.random(in: 1...255, using: &random)
                do {
                    _ = try await SyncEndpoint(log: b).push(changed)
                    Issue.record("a batch with byte \(position) changed was accepted")
                } catch let error as SyncError {
                    #expect([.malformedBatch, .unsupportedVersion].contains(error.code), "\(error)")
                }
                // With the trailer recomputed, the entry checks must catch it
                // (the header's own fields are checked against the request).
                let resealed = Self.resealed(changed)
                guard position >= 60, position < bytes.count - 32 else { continue }
                do {
                    _ = try await SyncEndpoint(log: b).push(resealed)
                    Issue.record("a re-sealed batch with byte \(position) changed was accepted")
                } catch let error as SyncError {
                    #expect(error.code == .malformedBatch, "\(error)")
                }
            }
            #expect(b.head.seq == 0)
        }
    }

    @Test("A batch from an unknown protocol version is refused as such")
    func unknownVersion() async throws {
        try await Self.withLogs { a, b in
            var bytes = try Self.pullBytes(from: a, for: b)
            bytes[4] = 2
            await expectSyncError(.unsupportedVersion) { _ = try await SyncEndpoint(log: b).push(Self.resealed(bytes)) }
            var mine = try PeerIdentity(of: b)
            mine.protocolVersion = 2
            expectSyncError(.unsupportedVersion) { _ = try SyncEndpoint(log: a).identity(answering: mine) }
            #expect(b.head.seq == 0)
        }
    }

    @Test("An oversized batch is refused before it is decoded")
    func oversized() async throws {
        try await Self.withLogs { a, b in
            let bytes = try Self.pullBytes(from: a, for: b)
            var limits = SyncLimits()
            limits.maximumBatchBytes = bytes.count - 1
            await expectSyncError(.tooLarge) { _ = try await SyncEndpoint(log: b, limits: limits).push(bytes) }
            #expect(b.head.seq == 0)
        }
    }

    @Test("Late, repeated and reordered batches change nothing: the checkpoint decides")
    func lateBatches() async throws {
        try await Self.withLogs { a, b in
            let first = try Self.pullBytes(from: a, for: b, max: 10)
            let second = try Self.pullBytes(from: a, for: b, since: try EntryBatch(decoding: first).through, max: 10)
            // The second before the first: refused, it would skip entries.
            await expectSyncError(.checkpointMoved) { _ = try await SyncEndpoint(log: b).push(second) }
            #expect(b.head.seq == 0)
            #expect(try await SyncEndpoint(log: b).push(first).applied == 10)
            #expect(try await SyncEndpoint(log: b).push(second).applied == 10)
            // Again: refused, nothing applied twice.
            await expectSyncError(.checkpointMoved) { _ = try await SyncEndpoint(log: b).push(first) }
            await expectSyncError(.checkpointMoved) { _ = try await SyncEndpoint(log: b).push(second) }
            #expect(b.head.seq == 20)
            try await PeerReplicator(log: b, peer: InMemoryTransport(serving: a)).sync(.pull)
            #expect(b.head.seq == 40)
            #expect(Set(try b.entries(after: nil, limit: 100).entries.map(\.dot)).count == 40)
        }
    }

    @Test("A peer that stops answering mid-batch times out; nothing of it is applied and the next round resumes")
    func silentPeer() async throws {
        try await Self.withLogs { a, b in
            let hang = Mutex(true)
            let hanging = Mutex(0)
            let transport = InMemoryTransport(serving: a) { _, _ in
                guard hang.withLock({ $0 }) else { return }
                hanging.withLock { $0 += 1 }
                try await suspendUntilCancelled()
            }
            // The timeout runs on a clock the test moves: it passes when the
            // test says so, and never during the second round, however slow
            // the machine.
            let clock = TestClock()
            var configuration = PeerReplicator.Configuration()
            configuration.clock = StoreClock(clock)
            configuration.requestTimeout = .seconds(30)
            configuration.maximumEntriesPerBatch = 10
            let replicator = PeerReplicator(log: b, peer: transport, configuration: configuration)
            let round = Task { try await replicator.sync(.pull) }
            try await waitUntil("the first batch is held up on its way") { hanging.withLock { $0 } == 1 }
            try await clock.waitForSleepers(remaining: [.seconds(30)])
            clock.advance(by: .seconds(30))
            await expectSyncError(.timedOut) { _ = try await round.value }
            #expect(hanging.withLock { $0 } == 1, "one batch was asked for, and it timed out")
            #expect(b.head.seq == 0)
            #expect(replicator.status.lastError?.contains("timedOut") == true)
            #expect(replicator.status.consecutiveFailures == 1)
            hang.withLock { $0 = false }
            let summary = try await replicator.sync(.pull)
            #expect(summary.pulled?.applied == 40 && summary.pulled?.batches == 4)
            #expect(replicator.status.lastError == nil && replicator.status.lagEntries == 0)
        }
    }

    @Test("A lost checkpoint costs a scan, not a transfer: a fresh pull from a peer holding everything sends no entry")
    func lostCheckpoint() async throws {
        try await Self.withLogs { a, b in
            try await PeerReplicator(log: b, peer: InMemoryTransport(serving: a)).sync(.pull)
            // A third store learns everything from b, then pulls from a with no checkpoint for a.
            try await withTemporaryDirectories(1) { directories in
                let c = try await runBlocking { try EventLog.open(at: directories[0]) }
                try await PeerReplicator(log: c, peer: InMemoryTransport(serving: b)).sync(.pull)
                let sent = Mutex(0)
                let counting = InMemoryTransport(serving: a) { _, bytes in
                    let batch = try EntryBatch(decoding: bytes)
                    sent.withLock { $0 += batch.entries.count }
                }
                let round = try await PeerReplicator(log: c, peer: counting).sync(.pull).pulled
                #expect(sent.withLock { $0 } == 0)
                #expect(round?.through == a.head.seq && round?.applied == 0)
                #expect(try c.checkpoint(for: a.storeID)?.seq == a.head.seq)
                await c.close()
            }
        }
    }
}
