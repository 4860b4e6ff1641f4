import AnchorageTesting
import Crypto
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

/// Sealed entries (entry version 3): what a store with its data key reads
/// and writes, what a store without it can still do, and what each
/// mismatch between a store and a key is answered.
@Suite("Sealing: entries sealed under a person's data key")
struct SealingTests {
    static let marker = Array("MARKER-72-bpm-heart-rate".utf8)

    static func sealed(_ keys: [DataKey]) -> EventLog.Configuration {
        var configuration = fastConfiguration
        configuration.sealing = .sealed(keys)
        return configuration
    }

    static func keyless(_ id: KeyID) -> EventLog.Configuration {
        var configuration = fastConfiguration
        configuration.sealing = .keyless(id)
        return configuration
    }

    /// Every byte of every file in `directory`.
    static func files(in directory: URL) throws -> [(String, [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.sorted().map { name in
            (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start] == needle[0] && Array(haystack[start..<start + needle.count]) == needle
        }
    }

    /// Sends every entry of `source` after `after` to `target` as a peer
    /// does: the exchange form, decoded and checked on arrival.
    @discardableResult
    static func replicate(from source: EventLog, to target: EventLog, after: UInt64 = 0) async throws -> ApplyResult {
        var entries: [LogEntry] = []
        _ = try source.readForReplication(after: after, maxEntries: 10_000, maxBytes: 1 << 30, skipping: [:]) {
            seq,
            previous,
            bytes in
            entries.append(try LogEntry(seq: seq, encoded: bytes, previousLink: previous))
        }
        return try await target.apply(entries)
    }

    static func events(count: Int) -> [LogEvent] {
        (0..<count).map { index -> LogEvent in
            let kind = EntryKind(rawValue: UInt32(index % 3 + 1))
            guard index % 4 != 3 else { return .delete(id: UUID(), kind: kind) }
            let payload: [UInt8] = marker + Array("#\(index)".utf8)
            return .save(id: UUID(), kind: kind, payload: payload)
        }
    }

    /// The code of the ``LogError`` `body` throws; `nil` when it throws none.
    static func code(_ body: () throws -> Any) -> LogError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? LogError)?.code
        }
    }

    /// The code of the ``LogError`` `body` throws; `nil` when it throws none.
    static func asyncCode(_ body: () async throws -> Any) async -> LogError.Code? {
        do {
            _ = try await body()
            return nil
        } catch {
            return (error as? LogError)?.code
        }
    }

    @Test(
        "a sealed store reads back what was written, keeps no marker in any file, and verifies with and without its key"
    )
    func roundTrip() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("store")
            let events = Self.events(count: 40)
            var written: [LogEntry] = []
            do {
                let log = try EventLog.open(at: store, configuration: Self.sealed([key]))
                try await log.append(Array(events[0..<20]))
                try await log.append(Array(events[20...]))
                written = try readAll(log)
                #expect(written.allSatisfy { $0.isSealed && $0.isOpened && $0.envelope != nil })
                #expect(written.map(\.id) == events.map(\.id))
                #expect(written.map(\.kind) == events.map(\.kind))
                #expect(written.map { $0.payload.map(Array.init) ?? [] } == events.map(\.payload))
                #expect(try readAll(log, kinds: [2]).map(\.id) == events.filter { $0.kind == 2 }.map(\.id))
                #expect(try log.verify().isIntact)
                #expect(log.sealingKeyID == key.id)
                await log.close()
            }
            for (name, bytes) in try Self.files(in: store) {
                #expect(!Self.contains(bytes, Self.marker), "\(name) holds the marker")
            }
            let keyless = try EventLog.open(at: store, configuration: Self.keyless(key.id))
            let unopened = try readAll(keyless)
            #expect(unopened.allSatisfy { !$0.isOpened && $0.payload == nil && $0.kind.rawValue == 0 })
            #expect(unopened.map(\.payloadDigest) == written.map(\.payloadDigest))
            #expect(unopened.map(\.envelope) == written.map(\.envelope))
            #expect(try keyless.verify().isIntact)
            await keyless.close()
        }
    }

    @Test("opening a sealed store without its key, with another key, or a plain one with a key: typed errors")
    func mismatchedOpens() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("sealed")
            let log = try EventLog.open(at: store, configuration: Self.sealed([key]))
            try await log.append(Self.events(count: 3))
            await log.close()
            #expect(Self.code { try EventLog.open(at: store, configuration: fastConfiguration) } == .keyUnavailable)
            #expect(Self.code { try EventLog.openForReading(at: store) } == .keyUnavailable)
            // Same id, other bytes: the key check refuses it.
            let impostor = try DataKey(id: key.id, version: 1, material: SymmetricKey(size: .bits256))
            #expect(Self.code { try EventLog.open(at: store, configuration: Self.sealed([impostor])) } == .wrongKey)
            #expect(
                Self.code {
                    try EventLog.open(at: store, configuration: Self.sealed([DataKey.generate()]))
                } == .wrongKey
            )
            #expect(Self.code { try EventLog.open(at: store, configuration: Self.keyless(KeyID())) } == .wrongKey)
            #expect(
                Self.code {
                    try EventLog.open(at: store, configuration: Self.keyless(key.id)) { opener in
                        [try KindIndex(in: opener)]
                    }
                } == .invalidArgument
            )

            let plain = directory.appendingPathComponent("plain")
            let plainLog = try EventLog.open(at: plain, configuration: fastConfiguration)
            try await plainLog.append(Self.events(count: 2))
            await plainLog.close()
            #expect(Self.code { try EventLog.open(at: plain, configuration: Self.sealed([key])) } == .unsealedEntry)
            // Nothing changed: the plain store opens as it was.
            let reopened = try EventLog.open(at: plain, configuration: fastConfiguration)
            #expect(try readAll(reopened).count == 2 && reopened.sealingKeyID == nil)
            await reopened.close()
        }
    }

    @Test("a keyless store cannot append; it stores, verifies and forwards a sealed store's entries unopened")
    func keylessRelay() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectory { directory in
            let source = try EventLog.open(at: directory.appendingPathComponent("a"), configuration: Self.sealed([key]))
            let relay = try EventLog.open(
                at: directory.appendingPathComponent("relay"),
                configuration: Self.keyless(key.id)
            )
            let target = try EventLog.open(at: directory.appendingPathComponent("b"), configuration: Self.sealed([key]))
            try await source.append(Self.events(count: 30))
            #expect(await Self.asyncCode { try await relay.append(Self.events(count: 1)) } == .keyUnavailable)
            #expect(try await Self.replicate(from: source, to: relay).applied == 30)
            #expect(try relay.verify().isIntact)
            #expect(try await Self.replicate(from: relay, to: target).applied == 30)
            let sent = try readAll(source)
            let received = try readAll(target)
            #expect(received.map(\.id) == sent.map(\.id))
            #expect(received.map(\.payload) == sent.map(\.payload))
            #expect(received.map(\.payloadDigest) == sent.map(\.payloadDigest))
            #expect(try target.verify().isIntact)
            for (name, bytes) in try Self.files(in: directory.appendingPathComponent("relay")) {
                #expect(!Self.contains(bytes, Self.marker), "the relay's \(name) holds the marker")
            }
            await source.close()
            await relay.close()
            await target.close()
        }
    }

    @Test(
        "a sealed store refuses plaintext entries from a peer, and a plain store refuses sealed ones; nothing is stored"
    )
    func sealingMismatchFromPeers() async throws {
        try await withTemporaryDirectory { directory in
            let sealed = try EventLog.open(
                at: directory.appendingPathComponent("sealed"),
                configuration: Self.sealed([DataKey.generate()])
            )
            let plain = try EventLog.open(
                at: directory.appendingPathComponent("plain"),
                configuration: fastConfiguration
            )
            try await sealed.append(Self.events(count: 3))
            try await plain.append(Self.events(count: 3))
            #expect(await Self.asyncCode { try await Self.replicate(from: plain, to: sealed) } == .unsealedEntry)
            #expect(await Self.asyncCode { try await Self.replicate(from: sealed, to: plain) } == .keyUnavailable)
            #expect(sealed.head.seq == 3 && plain.head.seq == 3)
            await sealed.close()
            await plain.close()
        }
    }

    @Test(
        "new entries are sealed under the highest key version; older versions still open; a version not given is keyUnavailable"
    )
    func keyVersions() async throws {
        let first = DataKey.generate()
        let second = DataKey.generate(id: first.id, version: 2)
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("store")
            var log = try EventLog.open(at: store, configuration: Self.sealed([first]))
            try await log.append(Self.events(count: 3))
            await log.close()
            log = try EventLog.open(at: store, configuration: Self.sealed([first, second]))
            try await log.append(Self.events(count: 3))
            let entries = try readAll(log)
            let versions = entries.map { $0.envelope.map { UInt16($0[2]) << 8 | UInt16($0[3]) } }
            #expect(versions == [1, 1, 1, 2, 2, 2])
            #expect(entries.allSatisfy { $0.isOpened })
            await log.close()
            log = try EventLog.open(at: store, configuration: Self.sealed([second]))
            #expect(Self.code { try readAll(log) } == .keyUnavailable)
            #expect(try log.entries(after: log.anchor(3), limit: 10).entries.count == 3)
            await log.close()
        }
    }

    @Test(
        "projections see sealed entries opened: a sealed store's index equals a plain store's for the same events, and a rebuild's"
    )
    func projectionsReadOpenedEntries() async throws {
        let events = Self.events(count: 50)
        try await withTemporaryDirectory { directory in
            let plainBox = ProjectionBox()
            let sealedBox = ProjectionBox()
            let plain = try EventLog.open(
                at: directory.appendingPathComponent("plain"),
                configuration: fastConfiguration,
                projections: plainBox.factory
            )
            let sealed = try EventLog.open(
                at: directory.appendingPathComponent("sealed"),
                configuration: Self.sealed([DataKey.generate()]),
                projections: sealedBox.factory
            )
            for chunk in stride(from: 0, to: events.count, by: 7) {
                let batch = Array(events[chunk..<min(chunk + 7, events.count)])
                try await plain.append(batch)
                try await sealed.append(batch)
            }
            let incremental = try KindIndex.dump(sealed, sealedBox.index!)
            #expect(incremental == (try KindIndex.dump(plain, plainBox.index!)))
            try await sealed.rebuildProjections()
            #expect(try KindIndex.dump(sealed, sealedBox.index!) == incremental)
            await plain.close()
            await sealed.close()
        }
    }

    @Test(
        "EventLog.verify(at:) checks a never-opened log-only backup without the key, and with it opens every envelope"
    )
    func verifyAtDirectory() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectory { directory in
            let log = try EventLog.open(at: directory.appending(path: "a"), configuration: Self.sealed([key]))
            try await log.append(Self.events(count: 12))
            let copy = directory.appending(path: "copy")
            try log.backup(to: copy, includingProjections: false)
            await log.close()
            #expect(!FileManager.default.fileExists(atPath: copy.appending(path: "projections.mdb").path))
            #expect(try EventLog.verify(at: copy, sealing: .keyless(key.id)).entriesChecked == 12)
            #expect(try EventLog.verify(at: copy, sealing: .sealed([key])).isIntact)
            // The check took no part in the copy's life: it is still a backup never opened.
            #expect(try EventLog.sealingKeyID(at: copy) == key.id)
            #expect(
                Self.code { try EventLog.openForReading(at: copy, configuration: Self.keyless(key.id)) } == .needsWriter
            )
            // A key that is not the store's opens no envelope.
            let impostor = try DataKey(id: key.id, version: 1, material: SymmetricKey(size: .bits256))
            let report = try EventLog.verify(at: copy, sealing: .sealed([impostor]))
            #expect(report.problem?.seq == 1, "\(String(describing: report.problem))")
        }
    }

    @Test("a keyless copy purges a sealed save on instruction: the envelope goes, the digest stays, the chain verifies")
    func keylessPurge() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectory { directory in
            let source = try EventLog.open(at: directory.appending(path: "a"), configuration: Self.sealed([key]))
            let relay = try EventLog.open(at: directory.appending(path: "relay"), configuration: Self.keyless(key.id))
            try await source.append(Self.events(count: 6))
            try await Self.replicate(from: source, to: relay)
            let before = try readAll(relay)
            #expect(try await relay.purgePayloads(at: [1]) == 1)
            let after = try readAll(relay)
            #expect(after[0].isPurged && after[0].envelope == nil)
            #expect(after[0].payloadDigest == before[0].payloadDigest)
            #expect(try relay.verify().isIntact)
            // The key holder that receives the purged copy still verifies it.
            let target = try EventLog.open(at: directory.appending(path: "b"), configuration: Self.sealed([key]))
            try await Self.replicate(from: relay, to: target)
            #expect(try readAll(target)[0].isPurged)
            #expect(try target.verify().isIntact)
            for log in [source, relay, target] { await log.close() }
        }
    }
}
