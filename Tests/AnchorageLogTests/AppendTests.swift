import AnchorageCore
import AnchorageTesting
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

@Suite("Appending and reading")
struct AppendTests {
    @Test("appended entries read back with dense seqs, dots, time, digest and payload")
    func roundTrip() async throws {
        var configuration = fastConfiguration
        configuration.clock = .continuous.telling { Date(timeIntervalSince1970: 1_700_000_000.5) }
        try await withTemporaryLog(configuration: configuration) { log, _ in
            let saved = UUID()
            let anchors = try await log.append([
                .save(id: saved, kind: 3, payload: Array("hello".utf8)),
                .delete(id: saved, kind: 3),
            ])
            #expect(anchors.map(\.seq) == [1, 2])
            #expect(log.head == anchors[1])
            let entries = try readAll(log)
            #expect(entries.map(\.seq) == [1, 2])
            #expect(
                entries.map(\.dot) == [Dot(origin: log.originID, counter: 1), Dot(origin: log.originID, counter: 2)]
            )
            #expect(entries[0].operation == .save && entries[1].operation == .delete)
            #expect(entries[0].payload == EntryPayload(Array("hello".utf8)))
            // Format 2: version 2, the digest covers a random salt, then the payload.
            let salt = try #require(entries[0].salt)
            #expect(entries[0].version == 2 && entries[1].version == 2)
            #expect(entries[0].payloadDigest == EntryDigest.of(salt.withBytes(Array.init) + Array("hello".utf8)))
            #expect(entries[0].payloadDigest != EntryDigest.of(Array("hello".utf8)))
            #expect(entries[1].payload == nil && entries[1].salt == nil && entries[1].payloadDigest == .zero)
            #expect(entries.allSatisfy { $0.timestamp == 1_700_000_000_500_000_000 && $0.kind == 3 && $0.id == saved })
            #expect(log.originID == log.storeID)
        }
    }

    @Test("a closed and reopened log keeps its entries, identity and chain")
    func reopen() async throws {
        try await withTemporaryDirectory { directory in
            let log = try EventLog.open(at: directory)
            try await log.append([.save(id: UUID(), kind: 1, payload: [1, 2, 3])])
            let identity = log.identity
            let before = try readAll(log)
            await log.close()

            let reopened = try EventLog.open(at: directory)
            #expect(reopened.identity == identity)
            try await reopened.append([.save(id: UUID(), kind: 1, payload: [4])])
            let after = try readAll(reopened)
            #expect(Array(after.prefix(1)) == before)
            #expect(after.map(\.seq) == [1, 2])
            #expect(after[1].dot.counter == 2)
            #expect(try reopened.verify().isIntact)
            await reopened.close()
        }
    }

    @Test(
        "a second open of an open store, or its compaction, fails with storeInUse; the open store holds six descriptors, all close-on-exec, none on anchorage.lock; after close it opens again"
    )
    func exclusiveOpen() async throws {
        try await withTemporaryDirectory { directory in
            let log = try EventLog.open(at: directory)
            try await log.append([.save(id: UUID(), kind: 1, payload: [1])])
            #expect {
                try EventLog.open(at: directory)
            } throws: { error in
                (error as? LogError)?.code == .storeInUse
            }
            #expect { try EventLog.compact(at: directory) } throws: { ($0 as? LogError)?.code == .storeInUse }
            let held = Self.descriptors(under: directory)
            #expect(
                held.count == 6,
                "LMDB's two on each data file (data.mdb, projections.mdb) and one on each lock file: \(held)"
            )
            #expect(!held.contains { $0.path.hasSuffix("anchorage.lock") })
            #expect(held.allSatisfy { $0.closeOnExec }, "a child process inherits none: \(held)")
            await log.close()
            #expect(Self.descriptors(under: directory).isEmpty)
            try EventLog.compact(at: directory)
            let again = try EventLog.open(at: directory)
            #expect(try again.entries(after: nil, limit: 10).entries.count == 1)
            await again.close()
        }
    }

    /// This process's descriptors on files under `directory`, and whether
    /// each is closed on `exec`.
    static func descriptors(under directory: URL) -> [(path: String, closeOnExec: Bool)] {
        let prefix = directory.resolvingSymlinksInPath().path + "/"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { name in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                target.hasPrefix(prefix),
                let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(name)", encoding: .utf8),
                let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags:") })
                    .flatMap({ Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) })
            else { return nil }
            return (target, flags & 0o2000000 != 0)
        }
    }

    @Test("a closed log refuses appends and reads with LogError.closed")
    func closed() async throws {
        try await withTemporaryDirectory { directory in
            let log = try EventLog.open(at: directory, configuration: fastConfiguration)
            await log.close()
            await #expect(throws: LogError.self) { try await log.append([.delete(id: UUID(), kind: 1)]) }
            #expect(throws: LogError.self) { try log.entries(after: nil, limit: 1) }
        }
    }

    @Test("an oversized payload is rejected before anything is stored")
    func oversized() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            let big = [UInt8](repeating: 0, count: (64 << 20) + 1)
            await #expect {
                try await log.append([
                    .save(id: UUID(), kind: 1, payload: [1]), .save(id: UUID(), kind: 1, payload: big),
                ])
            } throws: { error in
                (error as? LogError)?.code == .invalidEvent
            }
            let entries = try readAll(log)
            #expect(log.head.seq == 0 && entries.isEmpty)
        }
    }

    @Test("an invalid page limit is an error")
    func invalidLimit() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            #expect(throws: LogError.self) { try log.entries(after: nil, limit: 0) }
        }
    }

    @Test("a directory that cannot be created gives a fileSystem error")
    func unusableDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("file")
            try Data([1]).write(to: file)
            #expect {
                try EventLog.open(at: file.appendingPathComponent("store"))
            } throws: { error in
                (error as? LogError)?.code == .fileSystem
            }
        }
    }

    @Test("a file that is not a store is refused with a typed error")
    func notAStore() async throws {
        try await withTemporaryDirectory { directory in
            try Data(repeating: 0x5A, count: 64 * 1024).write(to: directory.appendingPathComponent("data.mdb"))
            #expect {
                try EventLog.open(at: directory)
            } throws: { error in
                (error as? LMDBError)?.code == .invalidFile
            }
        }
    }
}
