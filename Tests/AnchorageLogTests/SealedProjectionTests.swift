import AnchorageTesting
import Crypto
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

/// Sealed projection databases (``SealedProjectionDatabase``): what the
/// projections' code reads and writes through them equals a plain map,
/// while the file holds neither the values nor the identifiers nor the
/// kinds of their keys.
@Suite("Sealed projections: values sealed, identifiers as pseudonyms")
struct SealedProjectionTests {
    static let dataKey = try! DataKey(
        id: KeyID("6b6579732d666f722d70726f6a656374")!,
        version: 1,
        material: SymmetricKey(data: [UInt8](repeating: 7, count: 32))
    )

    /// The layouts the store uses, each with a generator of plain keys of it.
    static let layouts: [(name: String, layout: ProjectionKeyLayout)] = [
        ("kinds", .kindFirst),
        ("sources", ProjectionKeyLayout(.kind, .clear(1), .identifier)),
        ("grants", ProjectionKeyLayout(.lengthPrefixedIdentifier, .kind)),
        ("sync", ProjectionKeyLayout(.fixedIdentifier(32))),
        ("settings", ProjectionKeyLayout(.identifierAfter(Array("medication/".utf8)))),
        ("plain", .clear),
    ]

    static let kinds: [UInt32] = [1001, 1002, 2001, 4001, 7001, 9003]
    static let bundles = ["org.marker.alpha", "org.marker.beta-longer-bundle", "x", "org.marker.γ"]

    /// A random plain key of `layout`.
    static func key(of layout: String, _ random: inout SeededGenerator) -> [UInt8] {
        let kind = kinds.randomElement(using: &random)!.bigEndianBytes
        let tail = UInt64.random(in: 0...40, using: &random).bigEndianBytes
        switch layout {
        case "kinds": return kind + tail
        case "sources":
            return Bool.random(using: &random)
                ? kind + [0] + Array(bundles.randomElement(using: &random)!.utf8)
                : kind + [1] + UInt32.random(in: 0...5, using: &random).bigEndianBytes
        case "grants":
            let bundle = Array(bundles.randomElement(using: &random)!.utf8)
            return [UInt8(bundle.count)] + bundle + kind + [UInt8.random(in: 0...1, using: &random)]
        case "sync":
            let hash = Array(SHA256.hash(data: [UInt8.random(in: 0...6, using: &random)]))
            return hash + UUID.random(using: &random).bytes
        case "settings":
            switch Int.random(in: 0...2, using: &random) {
            case 0: return Array("medication/".utf8) + Array(bundles.randomElement(using: &random)!.utf8)
            case 1: return Array("activity".utf8) + UInt32.random(in: 0...40, using: &random).bigEndianBytes
            default: return Array("characteristics".utf8)
            }
        default: return UUID.random(using: &random).bytes
        }
    }

    static func withEnvironment<R>(
        sealer: EntrySealer?,
        _ body: (Environment, [String: Database]) throws -> R
    ) throws -> R {
        let directory = temporaryPath(prefix: "sealed-projections")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = Environment.Configuration()
        options.maxDatabases = 16
        options.options = [.noSync]
        let environment = try Environment(path: directory.path, configuration: options)
        environment.userContext = sealer
        let databases = try environment.write { txn in
            var databases: [String: Database] = [:]
            for (name, layout) in layouts {
                databases[name] = try txn.opener.projectionDatabase(named: name, keys: layout)
            }
            return databases
        }
        return try body(environment, databases)
    }

    /// Every entry of `database`, in its order, as the handle reads it.
    static func entries(_ database: Database, in environment: Environment) throws -> [([UInt8], [UInt8])] {
        try environment.read { txn in
            var entries: [([UInt8], [UInt8])] = []
            try txn.withCursor(on: database) { cursor in
                try cursor.scan { key, value in
                    entries.append((Array(key), Array(value)))
                    return true
                }
            }
            return entries
        }
    }

    /// The handle of `database` that reads the file as it is.
    static func raw(_ name: String, in environment: Environment) throws -> Database {
        try environment.write { txn in try txn.opener.database(named: name)! }
    }

    @Test(
        "the kind pseudonym is a permutation of 32 bits: distinct for 10,000 kinds, inverted exactly, another key's differs"
    )
    func kindPermutation() throws {
        let cipher = ProjectionCipher(key: Self.dataKey)
        // A second cipher of the same key, with nothing cached: it inverts.
        let inverse = ProjectionCipher(key: Self.dataKey)
        let other = ProjectionCipher(key: DataKey.generate())
        var seen: [UInt32: UInt32] = [:]
        var moved = 0
        for kind in UInt32(0)..<10_000 {
            let pseudonym = cipher.pseudonym(ofKind: kind)
            #expect(seen.updateValue(kind, forKey: pseudonym) == nil, "two kinds share the pseudonym \(pseudonym)")
            #expect(inverse.kind(ofPseudonym: pseudonym) == kind)
            if other.pseudonym(ofKind: kind) != pseudonym { moved += 1 }
        }
        #expect(moved > 9_990, "another key gives the same pseudonyms too often")
        #expect(seen.keys.filter { $0 < 10_000 }.count < 10, "pseudonyms stay in the kinds' range")
    }

    @Test(
        "random writes through sealed handles read back as a plain map does: lookups, prefix scans, order inside a kind",
        arguments: testSeeds([3, 17, 101])
    )
    func equalsPlainMap(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sealer = try EntrySealer(keys: [Self.dataKey])
        try Self.withEnvironment(sealer: sealer) { environment, databases in
            var model: [String: [[UInt8]: [UInt8]]] = [:]
            for round in 0..<20 {
                try environment.write { txn in
                    for _ in 0..<40 {
                        let (name, _) = Self.layouts.randomElement(using: &random)!
                        let key = Self.key(of: name, &random)
                        let value = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        }
                        switch Int.random(in: 0...9, using: &random) {
                        case 0...5:
                            try txn.put(value, forKey: key, in: databases[name]!)
                            model[name, default: [:]][key] = value
                        case 6:
                            let stored = try value.withUnsafeBytes { value in
                                try key.withUnsafeBytes {
                                    try txn.insert(
                                        value,
                                        forKey: $0,
                                        in: databases[name]!,
                                        atEnd: Bool.random(using: &random)
                                    )
                                }
                            }
                            // A key already there is never replaced.
                            if model[name]?[key] != nil { #expect(!stored) }
                            if stored { model[name, default: [:]][key] = value }
                        default:
                            let removed = try txn.removeValue(forKey: key, in: databases[name]!)
                            #expect(removed == (model[name]?.removeValue(forKey: key) != nil))
                        }
                    }
                }
                for (name, layout) in Self.layouts {
                    let expected = model[name] ?? [:]
                    let read = try Self.entries(databases[name]!, in: environment)
                    #expect(read.count == expected.count, "round \(round), \(name)")
                    #expect(Dictionary(read, uniquingKeysWith: { a, _ in a }) == expected, "round \(round), \(name)")
                    try environment.read { txn in
                        for (key, value) in expected {
                            #expect(try txn.value(forKey: key, in: databases[name]!) == value)
                        }
                        guard layout.parts.first == .kind else { return }
                        // Every key of one kind is together, in plain order after its kind.
                        for kind in Self.kinds {
                            let prefix = kind.bigEndianBytes
                            var scanned: [[UInt8]] = []
                            try txn.withCursor(on: databases[name]!) { cursor in
                                try cursor.scan(from: prefix) { key, _ in
                                    guard key.starts(with: prefix) else { return false }
                                    scanned.append(Array(key))
                                    return true
                                }
                            }
                            let wanted = expected.keys.filter { $0.starts(with: prefix) }
                            #expect(Set(scanned) == Set(wanted), "\(name), kind \(kind)")
                            if layout == .kindFirst {
                                #expect(scanned == wanted.sorted { $0.lexicographicallyPrecedes($1) })
                                var reversed: [[UInt8]] = []
                                try txn.withCursor(on: databases[name]!) { cursor in
                                    try cursor.scanReversed(from: prefix + [0xFF]) { key, _ in
                                        guard key.starts(with: prefix) else { return false }
                                        reversed.append(Array(key))
                                        return true
                                    }
                                }
                                #expect(reversed == scanned.reversed())
                            }
                        }
                    }
                }
            }
        }
    }

    @Test(
        "the file holds no value, identifier or kind it was given; the same writes give the same bytes; without the key they stay sealed"
    )
    func fileHoldsNothingPlain() throws {
        let sealer = try EntrySealer(keys: [Self.dataKey])
        let marker = Array("MARKER-projection-value".utf8)
        func write(_ environment: Environment, _ databases: [String: Database]) throws {
            try environment.write { txn in
                for (index, kind) in Self.kinds.enumerated() {
                    for bundle in Self.bundles {
                        try txn.put(
                            marker + [UInt8(index)],
                            forKey: kind.bigEndianBytes + [0] + Array(bundle.utf8),
                            in: databases["sources"]!
                        )
                        let grant = [UInt8(bundle.utf8.count)] + Array(bundle.utf8) + kind.bigEndianBytes + [1]
                        try txn.put(marker, forKey: grant, in: databases["grants"]!)
                    }
                    try txn.put(
                        marker,
                        forKey: kind.bigEndianBytes + UInt64(index).bigEndianBytes,
                        in: databases["kinds"]!
                    )
                    try txn.put(
                        marker,
                        forKey: Array("medication/".utf8) + Array(Self.bundles[index % Self.bundles.count].utf8),
                        in: databases["settings"]!
                    )
                }
            }
        }
        let digests = try (0..<2).map { _ in
            try Self.withEnvironment(sealer: sealer) { environment, databases in
                try write(environment, databases)
                var digest = SHA256()
                for (name, _) in Self.layouts where name != "plain" && name != "sync" {
                    if name == "settings" {
                        // The medication concepts are sealed; the literal stays.
                        let keys = try Self.entries(try Self.raw(name, in: environment), in: environment).map(\.0)
                        #expect(keys.count == Self.bundles.count)
                        #expect(keys.allSatisfy { $0.starts(with: Array("medication/".utf8)) })
                    }
                    for (key, value) in try Self.entries(try Self.raw(name, in: environment), in: environment) {
                        #expect(!SealingTests.contains(value, marker), "\(name) stores a value as given")
                        for bundle in Self.bundles where bundle.utf8.count > 2 {
                            #expect(
                                !SealingTests.contains(key, Array(bundle.utf8)),
                                "\(name) stores a bundle id as given"
                            )
                        }
                        if name == "kinds" || name == "sources" {
                            #expect(
                                !Self.kinds.contains(
                                    UInt32(bigEndian: key.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                                )
                            )
                        }
                        digest.update(data: key)
                        digest.update(data: value)
                    }
                }
                // A handle without the key cannot read them back either.
                let plainReader = try Self.raw("sources", in: environment)
                let rawEntries = try Self.entries(plainReader, in: environment)
                #expect(rawEntries.count == Self.kinds.count * Self.bundles.count)
                return Array(digest.finalize())
            }
        }
        #expect(digests[0] == digests[1], "two environments given the same writes hold different bytes")
        // The same writes without sealing do hold them: the scan can fail.
        try Self.withEnvironment(sealer: nil) { environment, databases in
            try write(environment, databases)
            let entries = try Self.entries(try Self.raw("sources", in: environment), in: environment)
            #expect(entries.contains { SealingTests.contains($0.1, marker) })
        }
    }

    @Test("a changed value, a value moved to another key and a file sealed under another key are refused with wrongKey")
    func tampering() throws {
        let sealer = try EntrySealer(keys: [Self.dataKey])
        try Self.withEnvironment(sealer: sealer) { environment, databases in
            let sealed = databases["kinds"]!
            let first = UInt32(1001).bigEndianBytes + UInt64(1).bigEndianBytes
            let second = UInt32(1001).bigEndianBytes + UInt64(2).bigEndianBytes
            try environment.write { txn in
                try txn.put([1, 2, 3], forKey: first, in: sealed)
                try txn.put([4, 5, 6], forKey: second, in: sealed)
            }
            let raw = try Self.raw("kinds", in: environment)
            let stored = try Self.entries(raw, in: environment)
            #expect(stored.count == 2)
            func refused(_ change: (borrowing WriteTransaction) throws -> Void) throws {
                try environment.write { txn in try change(txn) }
                #expect {
                    try environment.read { txn in try txn.value(forKey: first, in: sealed) }
                } throws: { error in
                    (error as? LogError)?.code == .wrongKey && "\(error)".contains("kinds")
                }
            }
            // A bit flipped in the first value.
            var flipped = stored[0].1
            flipped[0] ^= 1
            try refused { txn in try txn.put(flipped, forKey: stored[0].0, in: raw) }
            // The second entry's value under the first's key.
            try refused { txn in try txn.put(stored[1].1, forKey: stored[0].0, in: raw) }
            // A value sealed under another data key.
            let otherSealer = try EntrySealer(keys: [DataKey.generate(id: Self.dataKey.id, version: 1)])
            let other = SealedProjectionDatabase(
                name: "kinds",
                layout: .kindFirst,
                sealsValues: true,
                cipher: otherSealer.projections
            )
            try refused { txn in try txn.put([1, 2, 3], forKey: stored[0].0, in: raw.sealed(by: other)) }
        }
    }
}
