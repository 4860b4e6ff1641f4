import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

@Suite("Backups and incarnations")
struct BackupTests {
    @Test("a restored backup is a new incarnation: old anchors are stale, new entries get a new origin")
    func restoredBackup() async throws {
        try await withTemporaryDirectory { directory in
            let live = try EventLog.open(at: directory.appendingPathComponent("live"), configuration: fastConfiguration)
            try await live.append((0..<10).map { _ in .save(id: UUID(), kind: 1, payload: [1]) })
            let backupAnchor = live.head
            try live.backup(to: directory.appendingPathComponent("backup"))
            try await live.append((0..<5).map { _ in .save(id: UUID(), kind: 1, payload: [2]) })
            let liveAnchor = live.head
            let liveEntries = try readAll(live)
            await live.close()

            let restored = try EventLog.open(
                at: directory.appendingPathComponent("backup"),
                configuration: fastConfiguration
            )
            #expect(restored.storeID == live.storeID)
            #expect(restored.incarnation != live.incarnation)
            #expect(restored.originID != live.originID)
            #expect(try readAll(restored) == Array(liveEntries.prefix(10)))
            for anchor in [backupAnchor, liveAnchor] {
                #expect {
                    try restored.entries(after: anchor, limit: 10)
                } throws: { error in
                    (error as? LogError)?.code == .staleAnchor
                }
            }
            let anchors = try await restored.append([.save(id: UUID(), kind: 1, payload: [3])])
            #expect(anchors[0].seq == 11)
            let newest = try restored.entries(after: nil, limit: 20).entries.last!
            #expect(newest.dot == Dot(origin: restored.originID, counter: 1))
            #expect(try restored.verify().isIntact)
            let incarnation = restored.incarnation
            await restored.close()

            // Later opens keep the incarnation.
            let again = try EventLog.open(
                at: directory.appendingPathComponent("backup"),
                configuration: fastConfiguration
            )
            #expect(again.incarnation == incarnation)
            await again.close()
        }
    }

    @Test("a backup refuses a directory that already holds a store")
    func backupIntoStore() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, store in
            #expect {
                try log.backup(to: store)
            } throws: { error in
                (error as? LogError)?.code == .fileSystem
            }
        }
    }
}
