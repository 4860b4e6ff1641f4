import Foundation
package import LMDB

// What a position of this log covers, as dots: the pieces of a resume point
// valid on every copy of a store (a version vector), for change feeds that
// move from one copy to another.

extension EventLog {
    /// Which of the entries at `seqs` `vector` covers (their dot's counter
    /// is at most the vector's for their origin).
    package func covered(
        _ seqs: [UInt64],
        by vector: [StoreID: UInt64],
        in txn: borrowing ReadTransaction
    ) throws -> Set<UInt64> {
        guard !seqs.isEmpty, !vector.isEmpty else { return [] }
        let decoder = try decoder(in: txn)
        var covered = Set<UInt64>()
        for seq in Set(seqs) {
            let dot = try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value in
                try decoder.decode(seq: seq, bytes: value).dot
            }
            if let dot, dot.counter <= vector[dot.origin, default: 0] { covered.insert(seq) }
        }
        return covered
    }

    /// For each origin, the highest counter among the entries at positions
    /// after `start` through `end`.
    package func dots(
        after start: UInt64,
        through end: UInt64,
        in txn: borrowing ReadTransaction
    ) throws -> [StoreID: UInt64] {
        guard start < end else { return [:] }
        let decoder = try decoder(in: txn)
        var found: [StoreID: UInt64] = [:]
        try txn.withCursor(on: databases.log) { cursor in
            try cursor.scan(from: (start + 1).bigEndianBytes) { key, value in
                guard let seq = UInt64(bigEndianBytes: key), seq <= end else { return false }
                let dot = try decoder.decode(seq: seq, bytes: value).dot
                if found[dot.origin, default: 0] < dot.counter { found[dot.origin] = dot.counter }
                return true
            }
        }
        return found
    }

    /// The last position `p` such that `vector` covers every entry at or
    /// before `p`: where a consumer that has seen what `vector` covers
    /// resumes on this copy (entries after `p` it has seen are skipped by
    /// their dots). Reads the log from its start up to the first entry not
    /// covered.
    package func coveredPrefix(
        by vector: [StoreID: UInt64],
        through end: UInt64,
        in txn: borrowing ReadTransaction
    ) throws -> UInt64 {
        let decoder = try decoder(in: txn)
        var covered: UInt64 = 0
        try txn.withCursor(on: databases.log) { cursor in
            try cursor.scan(from: UInt64(1).bigEndianBytes) { key, value in
                guard let seq = UInt64(bigEndianBytes: key), seq <= end else { return false }
                let dot = try decoder.decode(seq: seq, bytes: value).dot
                guard dot.counter <= vector[dot.origin, default: 0] else { return false }
                covered = seq
                return true
            }
        }
        return covered
    }
}
