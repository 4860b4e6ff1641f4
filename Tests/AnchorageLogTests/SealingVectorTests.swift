import AnchorageTesting
import Crypto
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

/// Sealed entries against numbers computed outside Swift: docs/log-format.md's
/// "Test vector, sealed entries", which Scripts/sealing-vectors works out
/// with Python's `cryptography` (OpenSSL's HKDF, HMAC and AES-GCM-SIV) from
/// the documented layout.
@Suite("Sealing: known answers")
struct SealingVectorTests {
    enum Vector {
        static let dataKey = Array(UInt8(0)...UInt8(0x1F))
        static let keyID = KeyID("404142434445464748494a4b4c4d4e4f")!
        static let nonces = [Array(UInt8(0x20)...UInt8(0x2B)), Array(UInt8(0x30)...UInt8(0x3B))]
        static let logSubkey = "8747fb9c4a833912bd1475eb6848fcac90868d3729fff5b5bf24c570b18cb7a9"
        static let projectionsSubkey = "45e6c1aff2b006d60bb5cdc043c10393cf0a7ba755881ff1ea7e14a8edc4308e"
        static let namesSubkey = "bb6637b40c59354ac8d9874f663648c00217c1a5d0559f1ed685ab4d8913b191"
        static let keyCheck = "77d45025bffd8f73395aa1ad2546dedb"
        static let saveEnvelope =
            "01010001202122232425262728292a2b88e441fdccbebda055610e0f07af012e92d8e0e27388e2b058fc51f72439c43b"
            + "2a6edffb04cbc97d593450791251be69b079080405d4eec09cc82cf677005f4e"
        static let saveDigest = "302646d1acd04d1e35be1e113ea3873b64c972714295a36f70cb1cc89a919d9c"
        static let deleteEnvelope =
            "01010001303132333435363738393a3b6f9f0156f40b3fcb737c12ce164d0367a117af667bf5818c1f82f31aa46609f8"
            + "f4f809a7b607d06303b77afcc61daad5"
        static let deleteDigest = "da7025dcbb891c7869e29efe06a2aad5626e42e4be304462cf3cc63768006830"
        static let saveLink = "dfadf22c1d6496173517eb383ab2ef09b4b040a87d4ca47a30186b19d20fb8bb"
        static let deleteLink = "340b2d611e90be22614fd93aa12ab1a75b00b2858f2db2af51ee3aec4e59732e"
        static let storedSave = "030100000001000000000001" + saveEnvelope
        static let storedDelete = "030a00000001000000000002" + deleteLink + deleteEnvelope

        static var key: DataKey {
            get throws { try DataKey(id: keyID, version: 1, material: SymmetricKey(data: dataKey)) }
        }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func salt(_ bytes: [UInt8]) -> EntrySalt {
        bytes.withUnsafeBytes { EntrySalt(loadingFrom: $0, at: 0) }
    }

    @Test("the key derivation and the key check: HKDF-SHA256 and HMAC-SHA256 as documented")
    func keyDerivation() throws {
        let key = try Vector.key
        #expect(key.subkey(.log).withUnsafeBytes(Self.hex) == Vector.logSubkey)
        #expect(key.subkey(.projections).withUnsafeBytes(Self.hex) == Vector.projectionsSubkey)
        #expect(key.subkey(.names).withUnsafeBytes(Self.hex) == Vector.namesSubkey)
        #expect(Self.hex(key.check) == Vector.keyCheck)
    }

    @Test("the envelopes of a save and a delete, their digests and links, byte for byte")
    func envelopes() throws {
        let sealer = try EntrySealer(keys: [try Vector.key])
        let origin = ChainVectorTests.Vector.origin
        let object = ChainVectorTests.Vector.object
        let save = ChainVectorTests.Vector.payload.withUnsafeBytes { payload in
            sealer.seal(
                operation: .save,
                dot: Dot(origin: origin, counter: 1),
                kind: 3,
                timestamp: 1_700_000_000_000_000_000,
                id: object,
                payload: payload,
                nonce: Self.salt(Vector.nonces[0])
            )
        }
        let delete = sealer.seal(
            operation: .delete,
            dot: Dot(origin: origin, counter: 2),
            kind: 3,
            timestamp: 1_700_000_001_000_000_000,
            id: object,
            payload: nil,
            nonce: Self.salt(Vector.nonces[1])
        )
        #expect(Self.hex(save) == Vector.saveEnvelope)
        #expect(Self.hex(delete) == Vector.deleteEnvelope)
        #expect(EntryDigest.of(save).description == Vector.saveDigest)
        #expect(EntryDigest.of(delete).description == Vector.deleteDigest)
    }

    @Test("a sealed store that receives the vector's entries stores the documented bytes, opens them, and verifies")
    func appliedVector() async throws {
        let entries = try [Vector.storedSave, Vector.storedDelete].enumerated().map { index, hex in
            // The exchange form, built from the documented fields.
            let stored = try ChainVectorTests.bytes(hex)
            let envelope = Array(stored[(index == 0 ? 12 : 44)...])
            return LogEntry.unopened(
                seq: UInt64(index + 1),
                dot: Dot(origin: ChainVectorTests.Vector.origin, counter: UInt64(index + 1)),
                operation: index == 0 ? .save : .delete,
                envelope: envelope
            )
        }
        #expect(entries[0].payloadDigest.description == Vector.saveDigest)
        #expect(entries[0].link(after: .zero).description == Vector.saveLink)
        #expect(entries[1].link(after: entries[0].link(after: .zero)).description == Vector.deleteLink)
        var configuration = fastConfiguration
        configuration.newStoreID = { ChainVectorTests.Vector.origin }
        configuration.sealing = .sealed([try Vector.key])
        try await withTemporaryLog(configuration: configuration) { log, _ in
            _ = try await log.apply(entries)
            let stored = try CompactLayoutTests.storedValues(log)
            #expect(stored.map { Self.hex($0) } == [Vector.storedSave, Vector.storedDelete])
            let read = try readAll(log)
            #expect(read.map(\.kind) == [3, 3])
            #expect(read.map(\.id) == [ChainVectorTests.Vector.object, ChainVectorTests.Vector.object])
            #expect(read.map(\.timestamp) == [1_700_000_000_000_000_000, 1_700_000_001_000_000_000])
            #expect(read[0].payload.map(Array.init) == ChainVectorTests.Vector.payload)
            #expect(read[1].payload == nil)
            #expect(try log.verify().isIntact)
        }
    }

    @Test(
        "a sealed projection row: the projections' tag, a kind's pseudonym, a sealed bundle id and value, byte for byte"
    )
    func projectionRow() throws {
        let sealer = try EntrySealer(keys: [try Vector.key])
        #expect(Self.hex(sealer.projections.tag) == "0001e72350fa2a7cdb18")
        #expect(Self.hex(sealer.projections.pseudonym(ofKind: 1001).bigEndianBytes) == "a3865314")
        let stored = try SealedProjectionTests.withEnvironment(sealer: sealer) { environment, _ in
            let sources = try environment.write { txn in
                try txn.opener.projectionDatabase(named: "hk.sources", keys: ProjectionKeyLayout(.kind, .identifier))!
            }
            try environment.write { txn in
                try txn.put(
                    UInt64(1).bigEndianBytes + Array("Example".utf8),
                    forKey: UInt32(1001).bigEndianBytes + Array("com.example.app".utf8),
                    in: sources
                )
            }
            return try SealedProjectionTests.entries(
                try SealedProjectionTests.raw("hk.sources", in: environment),
                in: environment
            )
        }
        #expect(
            stored.map { Self.hex($0.0) } == ["a3865314a3d995eeb0e2d943c645ab5367d198f187b94c89084fcbfad8fa7f92dd5476"]
        )
        #expect(stored.map { Self.hex($0.1) } == ["e4c6d35e7bebc128c84522a76f8d3300c85f5a8841756fa705455c0deb2eb0"])
    }
}
