#if DEBUG
import AnchorageStoreTesting
import Foundation
@_spi(Testing) import LMDB
import Testing

@testable import Anchorage
@testable import AnchorageLog

#if canImport(Glibc)
import Glibc
#endif

/// A storage failure reaches the caller as an ``HKError`` that keeps its
/// cause, so `catch` can tell a full disk from a damaged log (debug builds
/// only: the faults are forced through the LMDB binding's injector).
@Suite("Errors keep their cause")
struct ErrorCauseTests {
    @Test(
        "a save that fails in storage is errorDatabaseInaccessible with the LMDBError underneath",
        arguments: [(ENOSPC, LMDBError.Code.noSpace), (EIO, .ioError)]
    )
    func storageCause(returnCode: Int32, code: LMDBError.Code) async throws {
        // A writer that never parks: a parking writer records the
        // projections clean in a commit of its own, which would take the
        // injected fault if the idle time passed before the save.
        var configuration = HKHealthStore.Configuration.forTests
        configuration.log.writerIdleTimeout = nil
        try await withTemporaryStore(configuration: configuration) { store, _ in
            let engine = try await store.engine()
            try engine.log.store().environment.faults.inject(returnCode, into: "mdb_txn_commit")
            await #expect {
                try await store.save(steps(1, atMinute: 0))
            } throws: { error in
                guard let error = error as? HKError, error.code == .errorDatabaseInaccessible,
                    let cause = error.underlyingError as? LMDBError
                else { return false }
                return cause.code == code && error.message.contains(cause.message)
                    && (error.userInfo[NSUnderlyingErrorKey] as? LMDBError) == cause
            }
            #expect(try await samples(in: store, of: stepType).isEmpty, "nothing of the failed save is stored")
            try await store.save(steps(2, atMinute: 1))
            #expect(try await samples(in: store, of: stepType).count == 1)
        }
    }

    @Test("errors compare by code, rule and message; a rule-broken error has no cause")
    func equality() {
        let cause = LogError(.closed, "closed")
        let a = HKError(.errorDatabaseInaccessible, "the store failed", underlyingError: cause)
        let b = HKError(.errorDatabaseInaccessible, "the store failed")
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a.underlyingError is LogError)
        #expect(HKError.invalid("OBJ-7", "bad").underlyingError == nil)
    }
}
#endif
