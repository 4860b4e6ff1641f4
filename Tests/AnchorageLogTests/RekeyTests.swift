import AnchorageTesting
import Crypto
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

/// `EventLog.rekey`: a data key version retired by re-sealing every entry
/// under the newest one.
@Suite("Sealing: re-sealing under a new data key version")
struct RekeyTests {
    /// The key versions of every stored envelope, read without the key.
    static func envelopeVersions(at store: URL, keyID: KeyID) async throws -> [UInt16] {
        let log = try EventLog.openForReading(at: store, configuration: SealingTests.keyless(keyID))
        let versions = try readAll(log).compactMap { entry in
            entry.envelope.map { UInt16($0[2]) << 8 | UInt16($0[3]) }
        }
        await log.close()
        return versions
    }

    @Test(
        "entries of version 1 re-sealed under version 2: the same contents, version 1 no longer needed, the same bytes on every copy, a new incarnation"
    )
    func retiresAVersion() async throws {
        let first = DataKey.generate()
        let second = DataKey.generate(id: first.id, version: 2)
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("store")
            let events = SealingTests.events(count: 60)
            let oldAnchor: Anchor
            do {
                let log = try EventLog.open(at: store, configuration: SealingTests.sealed([first]))
                try await log.append(Array(events[0..<30]))
                await log.close()
                // A second version arrives: new entries are sealed under it.
                let rotated = try EventLog.open(at: store, configuration: SealingTests.sealed([first, second]))
                try await rotated.append(Array(events[30...]))
                let saves = try readAll(rotated).filter { $0.operation == .save }.map(\.seq)
                #expect(try await rotated.purgePayloads(at: [saves[0], saves.last!]) == 2)
                oldAnchor = try rotated.entries(after: nil, limit: 5).next
                await rotated.close()
            }
            let before = try await Self.envelopeVersions(at: store, keyID: first.id)
            #expect(Set(before) == [1, 2])
            // Version 1 is still needed to read the store.
            let withoutFirst = try EventLog.open(at: store, configuration: SealingTests.sealed([second]))
            #expect(SealingTests.code { try readAll(withoutFirst) } == .keyUnavailable)
            await withoutFirst.close()
            let copy = directory.appendingPathComponent("copy")
            try FileManager.default.copyItem(at: store, to: copy)

            let report = try EventLog.rekey(at: store, keys: [first, second])
            #expect(report.version == 2 && report.retired == [1])
            #expect(report.entries == before.filter { $0 == 1 }.count)

            // Version 2 alone opens it now, and it holds what it held.
            let log = try EventLog.open(at: store, configuration: SealingTests.sealed([second]))
            let read = try readAll(log)
            // A purged sealed save keeps nothing but its digest.
            #expect(read.count == events.count && read.filter(\.isPurged).count == 2)
            let kept = zip(read, events).filter { !$0.0.isPurged }
            #expect(kept.allSatisfy { $0.0.id == $0.1.id && $0.0.kind == $0.1.kind })
            #expect(kept.allSatisfy { ($0.0.payload.map(Array.init) ?? []) == $0.1.payload })
            #expect(try log.verify().isIntact)
            #expect {
                try log.entries(after: oldAnchor, limit: 5)
            } throws: { error in
                (error as? LogError)?.code == .staleAnchor
            }
            let stored = try CompactLayoutTests.storedValues(log)
            await log.close()
            #expect(try await Self.envelopeVersions(at: store, keyID: first.id).allSatisfy { $0 == 2 })

            // A copy re-sealed on its own gets the same bytes.
            _ = try EventLog.rekey(at: copy, keys: [first, second])
            let other = try EventLog.open(at: copy, configuration: SealingTests.sealed([second]))
            #expect(try CompactLayoutTests.storedValues(other) == stored)
            await other.close()

            // Nothing left to re-seal: a second run changes nothing.
            let again = try EventLog.rekey(at: store, keys: [second])
            #expect(again.entries == 0 && again.retired.isEmpty)
        }
    }

    @Test("a plain store, keys of another id, a version missing: typed errors, nothing changed")
    func refusals() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectory { directory in
            let plain = directory.appendingPathComponent("plain")
            let log = try EventLog.open(at: plain, configuration: fastConfiguration)
            try await log.append(SealingTests.events(count: 4))
            await log.close()
            #expect(SealingTests.code { try EventLog.rekey(at: plain, keys: [key]) } == .invalidArgument)

            let sealed = directory.appendingPathComponent("sealed")
            let sealedLog = try EventLog.open(at: sealed, configuration: SealingTests.sealed([key]))
            try await sealedLog.append(SealingTests.events(count: 4))
            let entries = try readAll(sealedLog)
            await sealedLog.close()
            #expect(SealingTests.code { try EventLog.rekey(at: sealed, keys: [DataKey.generate()]) } == .wrongKey)
            let impostor = try DataKey(id: key.id, version: 1, material: SymmetricKey(size: .bits256))
            #expect(SealingTests.code { try EventLog.rekey(at: sealed, keys: [impostor]) } == .wrongKey)
            // Version 1 not given: its entries cannot be opened to re-seal.
            let onlyNew = DataKey.generate(id: key.id, version: 2)
            #expect(SealingTests.code { try EventLog.rekey(at: sealed, keys: [onlyNew]) } != nil)
            let reopened = try EventLog.open(at: sealed, configuration: SealingTests.sealed([key]))
            #expect(try readAll(reopened) == entries)
            await reopened.close()
        }
    }

    @Test(
        "copies re-sealed one after the other converge: the first refuses the other's version-1 entries, takes them re-sealed, and both end with the same bytes"
    )
    func copiesConverge() async throws {
        let first = DataKey.generate()
        let second = DataKey.generate(id: first.id, version: 2)
        try await withTemporaryDirectory { directory in
            let (a, b) = (directory.appendingPathComponent("a"), directory.appendingPathComponent("b"))
            let events = SealingTests.events(count: 15)
            var source = try EventLog.open(at: a, configuration: SealingTests.sealed([first]))
            try await source.append(Array(events[0..<10]))
            var copy = try EventLog.open(at: b, configuration: SealingTests.sealed([first]))
            #expect(try await copy.apply(readAll(source)).applied == 10)
            // The source takes more writes under version 1 while the copy is re-sealed.
            try await source.append(Array(events[10...]))
            await copy.close()
            _ = try EventLog.rekey(at: b, keys: [first, second])
            copy = try EventLog.open(at: b, configuration: SealingTests.sealed([first, second]))
            let late = Array(try readAll(source)[10...])
            #expect(await SealingTests.asyncCode { try await copy.apply(late) } == .wrongKey)
            #expect(copy.head.seq == 10, "a version-1 entry was stored in a re-sealed copy")
            // Re-sealed in its turn, the source sends everything under version 2.
            await source.close()
            _ = try EventLog.rekey(at: a, keys: [first, second])
            source = try EventLog.open(at: a, configuration: SealingTests.sealed([second]))
            #expect(try await copy.apply(readAll(source)).applied == 5)
            // The same entries, envelopes and digests on both (the links and
            // origin numbers are each copy's own).
            let (copied, sourced) = (try readAll(copy), try readAll(source))
            #expect(copied.map(\.dot) == sourced.map(\.dot))
            #expect(copied.map { $0.envelope.map(Array.init) } == sourced.map { $0.envelope.map(Array.init) })
            #expect(copied.map(\.storedDigest) == sourced.map(\.storedDigest))
            #expect(try copy.verify().isIntact)
            await copy.close()
            await source.close()
            for store in [a, b] {
                #expect(try await Self.envelopeVersions(at: store, keyID: first.id).allSatisfy { $0 == 2 })
            }
        }
    }
}
