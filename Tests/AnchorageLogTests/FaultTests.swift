#if DEBUG
import Foundation
@_spi(Testing) import LMDB
import Testing

@testable import AnchorageLog

#if canImport(Glibc)
import Glibc
#endif

/// Storage faults forced through the LMDB binding's fault injector (debug
/// builds only): the caller gets a typed error, nothing of the batch is
/// stored, and the log keeps working.
@Suite("Storage faults")
struct FaultTests {
    /// Durable commits, and a writer that never parks: a parking writer
    /// first records the projections clean in a commit of its own, which
    /// would take a fault injected into `mdb_txn_commit` for the test's
    /// commit whenever the machine is slow enough for the idle time to pass
    /// between the test's writes.
    static var durableWithoutIdleCommits: EventLog.Configuration {
        var configuration = EventLog.Configuration()
        configuration.writerIdleTimeout = nil
        return configuration
    }

    @Test(
        "a failing commit or write reaches the caller as a typed error and stores nothing",
        arguments: [
            (ENOSPC, "mdb_txn_commit", LMDBError.Code.noSpace),
            (EIO, "mdb_txn_commit", .ioError),
            (EACCES, "mdb_put", .permissionDenied),
            (ENOSPC, "mdb_put", .noSpace),
        ]
    )
    func storageFault(returnCode: Int32, function: String, code: LMDBError.Code) async throws {
        try await withTemporaryLog(configuration: Self.durableWithoutIdleCommits) { log, _ in
            try await log.append([.save(id: UUID(), kind: 1, payload: [1])])
            let before = try readAll(log)
            try log.store().environment.faults.inject(returnCode, into: function)
            await #expect {
                try await log.append([.save(id: UUID(), kind: 1, payload: [2]), .delete(id: UUID(), kind: 1)])
            } throws: { error in
                guard let error = error as? LMDBError else { return false }
                return error.code == code && !error.message.isEmpty
            }
            #expect(try readAll(log) == before)
            #expect(log.head.seq == 1)
            // The writer's state was not advanced: the next batch continues the chain.
            let anchors = try await log.append([.save(id: UUID(), kind: 1, payload: [3])])
            #expect(anchors.map(\.seq) == [2])
            #expect(try readAll(log).map(\.dot.counter) == [1, 2])
            #expect(try log.verify().isIntact)
        }
    }

    @Test(
        "a failing commit of the projections after the log's: the projections catch up before the callers get their anchors and before subscribers hear of the commit, equal to a rebuild"
    )
    func projectionsCommitFault() async throws {
        let box = ProjectionBox()
        var configuration = fastConfiguration
        configuration.writerIdleTimeout = nil  // no commit of its own while the test injects faults
        try await withTemporaryLog(configuration: configuration, projections: box.factory) { log, _ in
            try await log.append([.save(id: UUID(), kind: 1, payload: [1])])
            let companion = try #require(try log.store().environment.companion)
            var heads = log.headChanges().makeAsyncIterator()
            for code in [EIO, ENOSPC, MDB_MAP_FULL_CODE] {
                companion.faults.inject(code, into: "mdb_txn_commit")
                let anchors = try await log.append([
                    .save(id: UUID(), kind: 2, payload: [2]), .delete(id: UUID(), kind: 1),
                ])
                #expect(anchors.last?.seq == log.head.seq)
                #expect(try log.read { txn in try log.projectedSeq(in: txn) } == log.head.seq)
                // A subscriber woken by the commit finds the projections there
                // (it is not woken again for the catch-up alone).
                while let heard = await heads.next(), heard.seq < log.head.seq {}
                #expect(try log.read { txn in try log.projectedSeq(in: txn) } == log.head.seq)
            }
            #expect(try readAll(log).count == 7)
            let kept = try KindIndex.dump(log, box.index!)
            try await log.rebuildProjections()
            #expect(try KindIndex.dump(log, box.index!) == kept)
            #expect(try log.verify().isIntact)
        }
    }

    @Test("readers full is a resource error that says what to do")
    func readersFull() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            try log.store().environment.faults.inject(MDB_READERS_FULL_CODE, into: "mdb_txn_begin")
            #expect {
                try log.entries(after: nil, limit: 10)
            } throws: { error in
                guard let error = error as? LMDBError else { return false }
                return error.code == .readersFull && error.code.isResourceLimit && error.message.contains("maxReaders")
            }
            #expect(try log.entries(after: nil, limit: 10).entries.isEmpty)
        }
    }
}

/// `MDB_READERS_FULL` from lmdb.h.
let MDB_READERS_FULL_CODE: Int32 = -30790
/// `MDB_MAP_FULL` from lmdb.h.
let MDB_MAP_FULL_CODE: Int32 = -30792
#endif
