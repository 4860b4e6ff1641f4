import Foundation
import LMDB

extension EventLog {
    /// What ``verify(progress:)`` found.
    public struct VerificationReport: Sendable, Hashable {
        /// Entries checked (up to the first problem).
        public let entriesChecked: Int
        /// The last sequence number of the log when verification ran.
        public let head: UInt64
        /// The first problem found, or `nil` when the log is intact.
        public let problem: VerificationProblem?

        /// Whether no problem was found.
        public var isIntact: Bool { problem == nil }
    }

    /// The first place where a log does not verify.
    public struct VerificationProblem: Sendable, Hashable, CustomStringConvertible {
        /// The entry at fault, or `nil` for a problem of the store as a whole
        /// (the version vector).
        public let seq: UInt64?
        /// What is wrong, without payload contents.
        public let reason: String

        public var description: String {
            seq.map { "entry \($0): \(reason)" } ?? reason
        }
    }

    /// Walks the whole log and checks every entry: sequence numbers dense
    /// from 1, the header well-formed, the payload matching its digest
    /// where one is stored, every stored hash link matching a recomputation
    /// (format 2 stores links at intervals and always on the last entry,
    /// so each entry is covered by the next stored link), each origin's
    /// counters dense and in order, and the version vector equal to what
    /// the entries imply.
    ///
    /// It reads one consistent snapshot in one read transaction.
    ///
    /// ```swift
    /// let report = try log.verify()
    /// if let problem = report.problem { print("tampered or damaged at", problem) }
    /// ```
    ///
    /// - Parameter progress: called every 65,536 entries with the number
    ///   checked so far.
    public func verify(progress: ((Int) -> Void)? = nil) throws -> VerificationReport {
        try read { txn in
            try Self.verify(databases, decoder: try decoder(in: txn), in: txn, progress: progress)
        }
    }

    /// Walks the log `txn` sees; see ``verify(progress:)``.
    static func verify(
        _ databases: LogDatabases,
        decoder: EntryDecoder,
        in txn: borrowing some ReadableTransaction & ~Copyable,
        progress: ((Int) -> Void)? = nil
    ) throws -> VerificationReport {
        var walk = ChainWalk(decoder: decoder, sealedStore: try SealingRecord.read(databases, in: txn) != nil)
        try txn.withCursor(on: databases.log) { cursor in
            try cursor.scan { key, value in
                walk.check(key: key, value: value)
                if walk.checked % 65_536 == 0 { progress?(walk.checked) }
                return walk.problem == nil
            }
        }
        if walk.problem == nil, walk.seq > 0, !walk.lastLinked {
            walk.problem = VerificationProblem(
                seq: walk.seq,
                reason:
                    "the log's last entry does not store its link, so nothing covers the entries after the last stored one"
            )
        }
        if walk.problem == nil {
            let stored = try? databases.versionVector(in: txn)
            if stored != walk.counters {
                walk.problem = VerificationProblem(
                    seq: nil,
                    reason: stored.map {
                        "the version vector does not match the entries' dots (\($0.count) origins stored, "
                            + "\(walk.counters.count) in the log)"
                    } ?? "the version vector holds a damaged row"
                )
            }
        }
        return VerificationReport(entriesChecked: walk.checked, head: walk.seq, problem: walk.problem)
    }
}

/// The state of a walk along the hash chain.
private struct ChainWalk {
    let decoder: EntryDecoder
    var seq: UInt64 = 0
    var link = EntryDigest.zero
    var counters: [StoreID: UInt64] = [:]
    var checked = 0
    var lastLinked = true
    /// The last entry whose link was stored and checked (0: none yet).
    var lastStoredLink: UInt64 = 0
    var problem: EventLog.VerificationProblem?

    /// Whether the store records a key id: its entries must all be sealed.
    let sealedStore: Bool

    init(decoder: EntryDecoder, sealedStore: Bool) {
        self.decoder = decoder
        self.sealedStore = sealedStore
    }

    mutating func check(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        let expected = seq + 1
        guard let found = UInt64(bigEndianBytes: key) else {
            return fail(expected, "its key has \(key.count) bytes instead of 8")
        }
        guard found == expected else {
            return fail(expected, "it is missing: the next entry stored is \(found)")
        }
        let stored: StoredEntry
        do {
            stored = try decoder.decode(seq: found, bytes: value)
        } catch {
            return fail(found, error.message)
        }
        let header = stored.header(in: value)
        if let reason = sealingFault(stored, seq: found, bytes: value) { return fail(found, reason) }
        if stored.hasRegion, let digest = stored.storedDigest {
            let region = UnsafeRawBufferPointer(rebasing: value[stored.regionStart...])
            guard EntryDigest.of(region) == digest else {
                return fail(found, "its payload does not match its digest")
            }
        }
        let recomputed = EntryFormat.link(previous: link, header: header)
        if let storedLink = stored.storedLink {
            guard storedLink == recomputed else {
                let changed =
                    lastStoredLink + 1 == found
                    ? "this entry was changed" : "one of entries \(lastStoredLink + 1)…\(found) was changed"
                return fail(
                    found,
                    "its hash link does not match its contents and the previous link: \(changed)"
                )
            }
            lastStoredLink = found
        }
        let origin = header.dot.origin
        let previous = counters[origin, default: 0]
        guard header.dot.counter == previous + 1 else {
            return fail(found, "its dot \(header.dot) does not follow \(origin)'s previous counter \(previous)")
        }
        counters[origin] = header.dot.counter
        seq = found
        link = recomputed
        lastLinked = stored.storedLink != nil
        checked += 1
    }

    /// What is wrong with an entry's sealing: an unsealed entry in a sealed
    /// store or the reverse, an envelope whose structure does not hold, or,
    /// with the key, one that does not open.
    private func sealingFault(_ stored: StoredEntry, seq: UInt64, bytes: UnsafeRawBufferPointer) -> String? {
        guard stored.isSealed == sealedStore else {
            return sealedStore
                ? "it is not sealed, though the store is" : "it is sealed, though the store records no data key"
        }
        guard let envelope = stored.envelope(in: bytes) else { return nil }
        if let fault = SealedEnvelope.structuralFault(of: envelope) { return fault }
        guard let sealer = decoder.sealer else { return nil }
        do {
            _ = try sealer.open(envelope, operation: stored.operation, dot: stored.dot, seq: seq)
        } catch  where error.code == .keyUnavailable {
            // A version of the key this open was not given: nothing to check.
        } catch {
            return error.message
        }
        return nil
    }

    private mutating func fail(_ seq: UInt64, _ reason: String) {
        problem = EventLog.VerificationProblem(seq: seq, reason: reason)
    }
}
