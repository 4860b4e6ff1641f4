import AnchorageTestRun
import AnchorageTesting
import Crypto
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

/// Sealed entries as an attacker meets them: envelopes truncated, flipped,
/// moved to another entry or another store, and purged saves whose digest
/// must confirm no guess — not even to someone holding the key and every
/// nonce left in the log.
@Suite("Sealing: hostile envelopes and guesses")
struct SealingHostileTests {
    /// The entry in its exchange form with `envelope` and `dot`, its digest
    /// and link recomputed so that only the envelope's own check can catch
    /// the change (as a peer that knows the format would forge it).
    static func forged(_ entry: LogEntry, envelope: [UInt8], dot: Dot? = nil) -> LogEntry {
        .unopened(seq: entry.seq, dot: dot ?? entry.dot, operation: entry.operation, envelope: envelope)
    }

    @Test("flipped, truncated and extended envelopes, and envelopes moved to another dot: typed errors, nothing stored")
    func damagedEnvelopes() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectory { directory in
            let source = try EventLog.open(
                at: directory.appendingPathComponent("a"),
                configuration: SealingTests.sealed([key])
            )
            let target = try EventLog.open(
                at: directory.appendingPathComponent("b"),
                configuration: SealingTests.sealed([key])
            )
            try await source.append(SealingTests.events(count: 4))
            let entries = try readAll(source)
            let envelope = Array(entries[0].envelope!)
            var forgeries: [(String, LogEntry)] = []
            for index in [0, 1, 3, 5, 17, envelope.count - 17, envelope.count - 1] {
                var flipped = envelope
                flipped[index] ^= 0x01
                forgeries.append(("byte \(index) flipped", Self.forged(entries[0], envelope: flipped)))
            }
            forgeries.append(
                ("truncated by one block", Self.forged(entries[0], envelope: Array(envelope.dropLast(16))))
            )
            forgeries.append(("truncated to the header", Self.forged(entries[0], envelope: Array(envelope.prefix(16)))))
            forgeries.append(
                ("extended by a block", Self.forged(entries[0], envelope: envelope + [UInt8](repeating: 0, count: 16)))
            )
            // A valid envelope presented as another entry: another origin
            // (a store of the same person), or the next counter.
            forgeries.append(
                (
                    "moved to another origin",
                    Self.forged(entries[0], envelope: envelope, dot: Dot(origin: StoreID(), counter: 1))
                )
            )
            forgeries.append(
                ("presented as a delete", Self.forged(entries[0], envelope: envelope).asOperation(.delete))
            )
            for (what, forged) in forgeries {
                let code = await SealingTests.asyncCode { try await target.apply([forged]) }
                // A changed key version (1 → 0) names a version older than
                // the store's: wrongKey, as for an entry a copy not yet
                // re-sealed sends.
                let expected: [LogError.Code] =
                    what == "byte 3 flipped" ? [.wrongKey] : [.malformedEntry, .invalidEvent]
                #expect(code.map(expected.contains) == true, "\(what): \(String(describing: code))")
                #expect(target.head.seq == 0, "\(what) stored something")
            }
            // The genuine entries still apply.
            #expect(try await target.apply(entries).applied == 4)
            #expect(try target.verify().isIntact)
            await source.close()
            await target.close()
        }
    }

    @Test(
        "random and mutated sealed entries never crash the decoder or the opener; damage is a typed error",
        .ownThread
    )
    func hostileStoredBytes() async throws {
        let key = DataKey.generate()
        try await withTemporaryLog(configuration: SealingTests.sealed([key])) { log, _ in
            try await log.append(SealingTests.events(count: 6))
            _ = try await log.purgePayloads(at: [1])
            let valid = try CompactLayoutTests.storedValues(log)
            let decoder = try log.read { txn in try log.decoder(in: txn) }
            #expect(decoder.sealer != nil)
            var generator = SeededGenerator(seed: 0x5EA1)
            var opened = 0
            for round in 0..<10_000 {
                var bytes = valid[round % valid.count]
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    bytes[Int.random(in: bytes.indices, using: &generator)] = UInt8.random(
                        in: 0...255,
                        using: &generator
                    )
                }
                if Bool.random(using: &generator) {
                    bytes.removeLast(Int.random(in: 0...bytes.count, using: &generator))
                }
                do {
                    try bytes.withUnsafeBytes { buffer in
                        let stored = try decoder.decode(seq: 9, bytes: buffer)
                        try decoder.withContents(of: stored, seq: 9, bytes: buffer) { entry, _ in
                            if entry.isOpened { opened += 1 }
                        }
                    }
                } catch let error as LogError {
                    #expect([.malformedEntry, .keyUnavailable].contains(error.code), "\(error)")
                }
            }
            #expect(opened > 0, "unchanged entries open")
        }
    }

    @Test("a purged sealed save confirms no guess, even to the key's holder trying every nonce the log shows")
    func purgedSealedSaveResistsGuesses() async throws {
        let key = DataKey.generate()
        try await withTemporaryLog(configuration: SealingTests.sealed([key])) { log, _ in
            let guess = Array(#"{"value":72,"start":"08:00","end":"08:01"}"#.utf8)
            let id = UUID()
            try await log.append([.save(id: id, kind: 5, payload: guess)])
            try await log.append((0..<7).map { _ in .save(id: UUID(), kind: 5, payload: guess) })
            let first = try readAll(log)[0]
            #expect(try await log.purgePayloads(at: [1]) == 1)
            let after = try readAll(log)
            #expect(after[0].isPurged && after[0].envelope == nil && after[0].payloadDigest == first.payloadDigest)
            #expect(try log.verify().isIntact)
            // The attacker holds the key, knows the value, the object, the
            // time and the dot, and sees every other entry's nonce.
            let sealer = try EntrySealer(keys: [key])
            let nonces = after.dropFirst().map { entry in
                Array(entry.envelope![4..<16]).withUnsafeBytes { EntrySalt(loadingFrom: $0, at: 0) }
            }
            #expect(Set(nonces).count == nonces.count, "every entry draws its own nonce")
            let zero = [UInt8](repeating: 0, count: 12).withUnsafeBytes { EntrySalt(loadingFrom: $0, at: 0) }
            for nonce in nonces + [zero] {
                let attempt = guess.withUnsafeBytes { payload in
                    sealer.seal(
                        operation: .save,
                        dot: first.dot,
                        kind: 5,
                        timestamp: first.timestamp,
                        id: id,
                        payload: payload,
                        nonce: nonce
                    )
                }
                #expect(
                    EntryDigest.of(attempt) != first.payloadDigest,
                    "a nonce the log shows confirms the purged guess"
                )
            }
            // And the unpurged copies of the same value look unrelated.
            #expect(Set(after.dropFirst().map(\.payloadDigest)).count == 7)
        }
    }

    @Test("data keys are random, and an envelope opens only under the key that sealed it")
    func keysAreSecret() async throws {
        let keys = (0..<64).map { _ in DataKey.generate() }
        #expect(Set(keys.map { $0.material.withUnsafeBytes { Array($0) } }).count == 64)
        #expect(Set(keys.map(\.id)).count == 64)
        let key = keys[0]
        try await withTemporaryLog(configuration: SealingTests.sealed([key])) { log, _ in
            try await log.append(SealingTests.events(count: 2))
            let entry = try readAll(log)[0]
            let envelope = Array(entry.envelope!)
            let zeroKey = try DataKey(
                id: key.id,
                version: 1,
                material: SymmetricKey(data: [UInt8](repeating: 0, count: 32))
            )
            let sameID = try DataKey(id: key.id, version: 1, material: keys[1].material)
            for other in [zeroKey, sameID] {
                let sealer = try EntrySealer(keys: [other])
                let code = SealingTests.code {
                    try envelope.withUnsafeBytes { region in
                        try sealer.open(region, operation: .save, dot: entry.dot, seq: 1)
                    }
                }
                #expect(code == .malformedEntry)
            }
            // The same contents under the same dot and nonce, sealed by
            // another person's key, share no ciphertext.
            let nonce = Array(envelope[4..<16]).withUnsafeBytes { EntrySalt(loadingFrom: $0, at: 0) }
            let other = try EntrySealer(keys: [keys[1]]).seal(
                operation: .save,
                dot: entry.dot,
                kind: entry.kind,
                timestamp: entry.timestamp,
                id: entry.id,
                payload: nil,
                nonce: nonce
            )
            #expect(Array(other[16...]) != Array(envelope[16..<other.count]))
        }
    }
}

extension LogEntry {
    /// A sealed entry as a peer sends it: the envelope, no digest or link.
    static func unopened(seq: UInt64, dot: Dot, operation: EntryOperation, envelope: [UInt8]) -> LogEntry {
        LogEntry(
            seq: seq,
            dot: dot,
            timestamp: 0,
            operation: operation,
            kind: 0,
            id: .zero,
            payload: nil,
            version: 3,
            salt: nil,
            storedDigest: nil,
            link: nil,
            envelope: EntryPayload(envelope),
            isOpened: false
        )
    }

    /// The same entry with another operation (a forgery).
    fileprivate func asOperation(_ operation: EntryOperation) -> LogEntry {
        .unopened(seq: seq, dot: dot, operation: operation, envelope: Array(envelope!))
    }
}
