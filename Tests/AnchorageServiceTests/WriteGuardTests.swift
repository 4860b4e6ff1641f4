import Anchorage
import AnchorageLog
import AnchorageService
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Synchronization
import Testing

/// A lease the test grants and withdraws by hand.
private final class HandLease: WriteLease {
    let held = Mutex(true)
    let epoch: UInt64

    init(epoch: UInt64) { self.epoch = epoch }

    func check() throws(ServiceError) {
        guard held.withLock({ $0 }) else {
            throw ServiceError(.fleetUnavailable, "this node does not lead the store now", retryAfter: .seconds(1))
        }
    }
}

/// The one guard every write passes — HTTP, CLI and replication alike —
/// checked against what it promises: a refusal before the write stores
/// nothing, a refusal after it leaves the write stored and unacknowledged.
@Suite("WriteGuard: quota, replica acknowledgement and lease, before and after a write")
struct WriteGuardTests {
    static func batch(_ count: Int = 2) throws -> SampleBatch {
        try SampleWrites.batch(json: Data(SourcedHistory.jsonArray(count).utf8))
    }

    static func head(_ store: HKHealthStore) throws -> UInt64 { try store.eventLog().head.seq }

    @Test("a store at its quota refuses saves and replication before storing anything; deletes go through")
    func quota() async throws {
        try await withTemporaryStore { store, _ in
            let saved = try await SampleWrites.save(try Self.batch(), to: store)
            let used = try store.eventLog().storedBytes()
            var writes = WriteGuard()
            writes.storageQuota = .init(store: "alice", bytes: used + 1)
            // Below the quota: the write that crosses it goes through.
            _ = try await SampleWrites.save(try Self.batch(1), to: store, guarded: writes)
            writes.storageQuota = .init(store: "alice", bytes: used)
            let before = try Self.head(store)
            await #expect(throws: ServiceError.self) {
                _ = try await SampleWrites.save(try Self.batch(), to: store, guarded: writes)
            }
            do throws(ServiceError) {
                try writes.beforeWrite(.replication, to: store)
                Issue.record("replication past the quota was let through")
            } catch {
                #expect(error.code == .quotaExceeded)
                #expect(error.message.contains("alice") && error.message.contains("quota is \(used)"))
            }
            #expect(try Self.head(store) == before, "a refused save stored something")
            let deletion = try await SampleWrites.delete([saved[0]], from: store, guarded: writes)
            #expect(deletion.deleted == 1)
        }
    }

    @Test(
        "the quota counts the pages in use of both files, the log's and the indices' (data.mdb + projections.mdb), not their lengths"
    )
    func quotaCountsBothFiles() async throws {
        try await withTemporaryStore { store, _ in
            _ = try await SampleWrites.save(try Self.batch(50), to: store)
            let (log, projections) = try store.eventLog().storedBytesByFile()
            #expect(log > 0 && projections > 0)
            #expect(try store.eventLog().storedBytes() == log + projections)
            var writes = WriteGuard()
            // Over the log's pages alone, within both files': refused.
            writes.storageQuota = .init(store: "alice", bytes: log + projections / 2)
            let before = try Self.head(store)
            do throws(ServiceError) {
                try writes.beforeWrite(.save, to: store)
                Issue.record("a save past the quota of both files was let through")
            } catch {
                #expect(error.code == .quotaExceeded && error.message.contains("uses \(log + projections) bytes"))
            }
            #expect(try Self.head(store) == before)
            // One byte over both files' pages: let through.
            writes.storageQuota = .init(store: "alice", bytes: log + projections + 1)
            try writes.beforeWrite(.save, to: store)
        }
    }

    @Test("a lease withdrawn before a write stores nothing; withdrawn during it, the write is stored, not acknowledged")
    func lease() async throws {
        try await withTemporaryStore { store, _ in
            let lease = HandLease(epoch: 3)
            let writes = WriteGuard(followers: ReplicaFollowers(clock: .continuous), lease: lease)
            _ = try await SampleWrites.save(try Self.batch(), to: store, guarded: writes)
            lease.held.withLock { $0 = false }
            let before = try Self.head(store)
            do {
                _ = try await SampleWrites.save(try Self.batch(), to: store, guarded: writes)
                Issue.record("a write without the lease was taken")
            } catch let error as ServiceError {
                #expect(error.code == .fleetUnavailable && error.retryAfter == .seconds(1))
                #expect(!error.message.contains("stored on this node"))
            }
            #expect(try Self.head(store) == before)
            // Lost once the write is stored: the check after it refuses to acknowledge it.
            lease.held.withLock { $0 = true }
            do {
                try writes.beforeWrite(.save, to: store)
                try await store.save(try Self.batch().objects)
                lease.held.withLock { $0 = false }
                try await writes.afterWrite(.save, to: store)
                Issue.record("a write was acknowledged after the lease was lost")
            } catch let error as ServiceError {
                #expect(error.code == .fleetUnavailable)
                #expect(error.message.hasPrefix("the write is stored on this node"))
            }
            #expect(try Self.head(store) > before, "the write under way was stored")
            // Replication is checked by its own protocol's epochs, not the lease.
            try writes.beforeWrite(.replication, to: store)
        }
    }

    @Test("a replica holding a higher epoch than the lease's deposes this copy: notPrimary before the write")
    func higherEpoch() async throws {
        try await withTemporaryStore { store, _ in
            let followers = ReplicaFollowers(clock: .continuous)
            let writes = WriteGuard(followers: followers, lease: HandLease(epoch: 3))
            followers.saw(epoch: 3)
            try writes.beforeWrite(.save, to: store)
            followers.saw(epoch: 4)
            do throws(ServiceError) {
                try writes.beforeWrite(.delete, to: store)
                Issue.record("a deposed copy took a write")
            } catch {
                #expect(error.code == .notPrimary)
            }
        }
    }

    @Test(
        "with replica acknowledgement: refused when no replica follows; acknowledged once one confirms; not when none does in time"
    )
    func replicaAcknowledgement() async throws {
        try await withTemporaryStore { store, _ in
            let clock = TestClock()
            let followers = ReplicaFollowers(clock: StoreClock(clock))
            let writes = WriteGuard(followers: followers, replicaAcknowledgement: .seconds(5))
            do {
                _ = try await SampleWrites.save(try Self.batch(), to: store, guarded: writes)
                Issue.record("a write was taken with no replica following")
            } catch let error as ServiceError {
                #expect(error.code == .replicationUnavailable && error.retryAfter == .seconds(5))
                #expect(error.message.contains("nothing was stored"))
            }
            #expect(try Self.head(store) == 0)
            // A replica pulls: it follows. Its next pull confirms the write.
            followers.heard(position: 0)
            let saving = Task { try await SampleWrites.save(try Self.batch(), to: store, guarded: writes) }
            try await clock.waitForSleepers(1)
            followers.heard(position: try Self.head(store))
            #expect(try await saving.value.count == 2)
            // None confirms the next one within 5 s of the clock.
            let unconfirmed = Task { try await SampleWrites.save(try Self.batch(), to: store, guarded: writes) }
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(5))
            do {
                _ = try await unconfirmed.value
                Issue.record("a write no replica confirmed was acknowledged")
            } catch let error as ServiceError {
                #expect(error.code == .replicationUnavailable)
                #expect(error.message.hasPrefix("the write is stored on this node"))
            }
            // Past the bound since the last contact: refused before storing again.
            clock.advance(by: .seconds(1))
            let before = try Self.head(store)
            #expect(throws: ServiceError.self) { try writes.beforeWrite(.save, to: store) }
            #expect(try Self.head(store) == before)
        }
    }
}
