import AnchorageLog
import AnchorageSync
import AnchorageTesting
import Foundation
import Testing

/// The session state machine, without logs or sockets.
@Suite("Sync session")
struct SyncSessionTests {
    let me = PeerIdentity(storeID: StoreID(), incarnation: 1, head: 10, versionVector: [:])
    let peerID = StoreID()

    func peer(head: UInt64, incarnation: UInt64 = 7, checkpoint: UInt64? = nil) -> PeerIdentity {
        PeerIdentity(storeID: peerID, incarnation: incarnation, head: head, versionVector: [:], checkpoint: checkpoint)
    }

    func batch(from: UInt64, through: UInt64, head: UInt64, incarnation: UInt64 = 7) -> EntryBatch {
        EntryBatch(
            storeID: peerID,
            incarnation: incarnation,
            from: from,
            through: through,
            head: head,
            hasMore: through < head,
            entries: []
        )
    }

    @Test("A pull resumes from a checkpoint of the peer's current incarnation")
    func resumesFromCheckpoint() throws {
        var session = SyncSession(direction: .pull, local: me)
        #expect(session.start() == .identify)
        let checkpoint = Anchor(storeID: peerID, incarnation: 7, seq: 40)
        #expect(try session.identified(peer(head: 100), checkpoint: checkpoint) == .pull(incarnation: 7, since: 40))
        #expect(try session.received(batch(from: 40, through: 70, head: 100)) == .apply)
        let next = session.applied(BatchReceipt(applied: 30, skipped: 0, checkpoint: 70), hasMore: true)
        #expect(next == .pull(incarnation: 7, since: 70))
        #expect(try session.received(batch(from: 70, through: 100, head: 100)) == .apply)
        guard
            case .finished(let round) = session.applied(
                BatchReceipt(applied: 20, skipped: 10, checkpoint: 100),
                hasMore: false
            )
        else {
            Issue.record("the round should finish when the batch has no more")
            return
        }
        #expect(round.applied == 50 && round.skipped == 10 && round.batches == 2 && round.through == 100)
        #expect(round.checkpointFallbacks == 0)
    }

    @Test("A checkpoint of another incarnation falls back to the version vector from the beginning, and is counted")
    func fallsBackOnNewIncarnation() throws {
        var session = SyncSession(direction: .pull, local: me)
        _ = session.start()
        let old = Anchor(storeID: peerID, incarnation: 6, seq: 40)
        #expect(try session.identified(peer(head: 100), checkpoint: old) == .pull(incarnation: 7, since: 0))
        #expect(session.round.checkpointFallbacks == 1)
    }

    @Test("A checkpoint past the peer's head (the peer lost entries) starts from the beginning")
    func checkpointAhead() throws {
        var session = SyncSession(direction: .pull, local: me)
        _ = session.start()
        let ahead = Anchor(storeID: peerID, incarnation: 7, seq: 500)
        #expect(try session.identified(peer(head: 100), checkpoint: ahead) == .pull(incarnation: 7, since: 0))
    }

    @Test("Nothing to pull finishes at once")
    func nothingToPull() throws {
        var session = SyncSession(direction: .pull, local: me)
        _ = session.start()
        let action = try session.identified(
            peer(head: 40),
            checkpoint: Anchor(storeID: peerID, incarnation: 7, seq: 40)
        )
        guard case .finished(let round) = action else {
            Issue.record("expected finished, got \(action)")
            return
        }
        #expect(round.batches == 0 && round.through == 40)
    }

    @Test("A batch that does not answer the request is refused: other store, other start")
    func refusesUnaskedBatch() throws {
        var session = SyncSession(direction: .pull, local: me)
        _ = session.start()
        _ = try session.identified(peer(head: 100), checkpoint: nil)
        expectSyncError(.protocolViolation) { _ = try session.received(batch(from: 5, through: 10, head: 100)) }
        expectSyncError(.wrongPeer) {
            _ = try session.received(batch(from: 0, through: 10, head: 100, incarnation: 8))
        }
    }

    @Test("Identities: this store itself, a changed peer, another protocol version")
    func identities() throws {
        var session = SyncSession(direction: .pull, local: me)
        _ = session.start()
        let itself = PeerIdentity(storeID: me.storeID, incarnation: 1, head: 10, versionVector: [:])
        expectSyncError(.wrongPeer) { _ = try session.identified(itself, checkpoint: nil) }
        var future = peer(head: 1)
        future.protocolVersion = 99
        expectSyncError(.unsupportedVersion) { _ = try session.identified(future, checkpoint: nil) }
        _ = try session.identified(peer(head: 100), checkpoint: nil)
        _ = try session.restart(after: SyncError(.checkpointMoved, "moved"))
        let other = PeerIdentity(storeID: StoreID(), incarnation: 1, head: 5, versionVector: [:])
        expectSyncError(.wrongPeer) { _ = try session.identified(other, checkpoint: nil) }
    }

    @Test("A push starts from the peer's checkpoint for this store and sends with the peer's version vector")
    func push() throws {
        var session = SyncSession(direction: .push, local: me)
        _ = session.start()
        var theirs = peer(head: 3, checkpoint: 4)
        theirs.versionVector = [me.storeID: 6]
        #expect(try session.identified(theirs, checkpoint: nil) == .push(since: 4, versionVector: [me.storeID: 6]))
        let next = session.pushed(BatchReceipt(applied: 4, skipped: 0, checkpoint: 8), hasMore: true)
        #expect(next == .push(since: 8, versionVector: [me.storeID: 6]))
        guard
            case .finished(let round) = session.pushed(
                BatchReceipt(applied: 2, skipped: 0, checkpoint: 10),
                hasMore: false
            )
        else {
            Issue.record("expected the push to finish")
            return
        }
        #expect(round.applied == 6 && round.batches == 2)
    }

    @Test("Restarts are bounded: a checkpoint that keeps moving fails the round")
    func boundedRestarts() throws {
        var session = SyncSession(direction: .pull, local: me)
        _ = session.start()
        let moved = SyncError(.checkpointMoved, "moved")
        for _ in 0..<SyncSession.maximumRestarts {
            #expect(try session.restart(after: moved) == .identify)
        }
        expectSyncError(.checkpointMoved) { _ = try session.restart(after: moved) }
    }

    @Test(
        "Back-off doubles up to its maximum, jitter stays within its share, and a success resets it",
        arguments: testSeeds([0xBAC0FF])
    )
    func backoff(seed: UInt64) {
        var backoff = Backoff(base: .milliseconds(100), maximum: .seconds(2), jitter: 0.5)
        var random = SeededGenerator(seed: seed)
        var ceilings: [Duration] = []
        for _ in 0..<8 {
            let delay = backoff.next(using: &random)
            let ceiling = min(Duration.milliseconds(100) * (1 << ceilings.count), .seconds(2))
            #expect(delay <= ceiling && delay >= ceiling / 2)
            ceilings.append(ceiling)
        }
        #expect(ceilings.last == .seconds(2))
        backoff.reset()
        #expect(backoff.next(using: &random) <= .milliseconds(100))
    }
}
