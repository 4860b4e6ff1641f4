#if ANCHORAGE_LMDB_FAULTS
import Synchronization

/// Forces chosen return codes from chosen LMDB functions, for tests.
///
/// Compiled into debug builds only (the `ANCHORAGE_LMDB_FAULTS` condition in
/// `Package.swift`). A forced code replaces the call: the C function is not
/// run, so LMDB's own state stays consistent with what the caller is told
/// (a forced `mdb_txn_commit` failure aborts the transaction, as a real one
/// does).
///
/// ```swift
/// environment.faults.inject(ENOSPC, into: "mdb_txn_commit")
/// ```
@_spi(Testing)
public final class FaultInjector: Sendable {
    private struct Rule: Sendable {
        var function: String
        var returnCode: Int32
        var skip: Int
        var remaining: Int
    }

    private let rules = Mutex<[Rule]>([])

    init() {}

    /// Makes the next `times` calls of `function`, after `skip` successful
    /// ones, return `returnCode` without running.
    public func inject(_ returnCode: Int32, into function: String, skip: Int = 0, times: Int = 1) {
        rules.withLock { $0.append(Rule(function: function, returnCode: returnCode, skip: skip, remaining: times)) }
    }

    /// Removes every pending fault.
    public func clear() {
        rules.withLock { $0.removeAll() }
    }

    /// The code to return instead of calling `function`, if a fault is due.
    func take(_ function: StaticString) -> Int32? {
        let name = "\(function)"
        return rules.withLock { rules -> Int32? in
            guard let index = rules.firstIndex(where: { $0.function == name }) else { return nil }
            if rules[index].skip > 0 {
                rules[index].skip -= 1
                return nil
            }
            let code = rules[index].returnCode
            rules[index].remaining -= 1
            if rules[index].remaining == 0 { rules.remove(at: index) }
            return code
        }
    }
}
#endif
