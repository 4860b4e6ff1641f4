import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

/// What keeps a purged version-2 save unguessable, tested as an attacker
/// would try it: the salt must be fresh for every entry, so the digest of a
/// purged save confirms no guess even to someone who sees every other
/// entry's salt.
@Suite("Salts: fresh per entry, never a constant")
struct SaltTests {
    @Test("identical payloads get different salts and digests, in one batch and across batches")
    func identicalPayloadsDiffer() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            let payload = Array(#"{"value":72}"#.utf8)
            try await log.append([
                .save(id: UUID(), kind: 5, payload: payload), .save(id: UUID(), kind: 5, payload: payload),
            ])
            try await log.append([.save(id: UUID(), kind: 5, payload: payload)])
            let entries = try readAll(log)
            #expect(Set(entries.map(\.payloadDigest)).count == 3)
            #expect(Set(entries.compactMap(\.salt)).count == 3)
        }
    }

    @Test(
        "a purged save's digest is confirmed neither by the bare guess nor by the guess behind any salt left in the log"
    )
    func purgedSaveResistsVisibleSalts() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            let guess = Array(#"{"value":72,"start":"08:00","end":"08:01"}"#.utf8)
            // The same value saved again later: its salt stays visible.
            try await log.append((0..<8).map { _ in .save(id: UUID(), kind: 5, payload: guess) })
            let digest = try readAll(log)[0].payloadDigest
            #expect(try await log.purgePayloads(at: [1]) == 1)
            let visible = try readAll(log).compactMap(\.salt)
            #expect(visible.count == 7)
            let zero = [UInt8](repeating: 0, count: EntrySalt.size).withUnsafeBytes {
                EntrySalt(loadingFrom: $0, at: 0)
            }
            for salt in visible + [zero] {
                let attempt = guess.withUnsafeBytes { EntryFormat.digest(salt: salt, payload: $0) }
                #expect(attempt != digest, "a salt another entry shows confirms the purged guess")
            }
            #expect(EntryDigest.of(guess) != digest)
        }
    }

    @Test("the salts of 4,096 entries are all different, and every one of their 96 bits takes both values")
    func saltsAreRandom() {
        let salts = EntrySalt.random(count: 4_096)
        #expect(Set(salts).count == salts.count)
        var ones = [Int](repeating: 0, count: 96)
        for salt in salts {
            salt.withBytes { bytes in
                for bit in 0..<96 where bytes[bit / 8] & (1 << (bit % 8)) != 0 { ones[bit] += 1 }
            }
        }
        // Each bit is set in about half the salts; a stuck bit (0 or 4,096)
        // is a constant. 1,700…2,400 is more than 11 standard deviations wide.
        #expect(ones.allSatisfy { (1_700...2_400).contains($0) }, "\(ones)")
    }
}
