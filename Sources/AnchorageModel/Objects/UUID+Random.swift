import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension UUID {
    /// A new object identifier: a time-ordered, version 7 uuid (RFC 9562):
    /// 48 bits of Unix milliseconds, a 12-bit sequence that keeps uuids made
    /// in this process strictly increasing, and 62 random bits from the
    /// system's secure generator.
    ///
    /// Time order matters to the store: its object index is keyed by uuid,
    /// and new keys that sort after the existing ones land on the index's
    /// last pages instead of dirtying a random page each (docs/store-format.md).
    /// Random (version 4) uuids from elsewhere work the same, only slower
    /// to index. It also avoids Foundation's `UUID()`, which opens, reads
    /// and closes `/dev/urandom` for every uuid on Linux; the random bits
    /// come from a pool refilled with one `getrandom` call per 128 uuids.
    package static func random() -> UUID {
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1_000)) & 0xFFFF_FFFF_FFFF
        let (milliseconds, sequence, random) = Self.next(at: now)
        // 48 bits time ‖ version 7 ‖ 12 bits sequence ‖ variant 10 ‖ 62 random bits
        let high = milliseconds << 16 | 0x7000 | (sequence & 0x0FFF)
        let low = (random & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { buffer in
            buffer.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            buffer.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: bytes)
    }

    /// The millisecond and sequence of the last uuid made in this process,
    /// and the pool of random words the next uuids draw from.
    private static let clock = Mutex(UUIDClock())

    /// The time and 12-bit sequence of the next uuid, strictly after the
    /// previous one (RFC 9562, method 1): a new millisecond starts the
    /// sequence at a random value below 2,048, so uuids stay hard to guess;
    /// within a millisecond it counts up, and past 4,095 it borrows the next
    /// millisecond. A clock that steps back does not reorder uuids either.
    private static func next(at now: UInt64) -> (milliseconds: UInt64, sequence: UInt64, random: UInt64) {
        clock.withLock { clock in
            if now > clock.milliseconds {
                clock.milliseconds = now
                clock.sequence = clock.randomWord() & 0x07FF
            } else if clock.sequence < 0x0FFF {
                clock.sequence += 1
            } else {
                clock.milliseconds += 1
                clock.sequence = 0
            }
            return (clock.milliseconds, clock.sequence, clock.randomWord())
        }
    }
}

/// The state behind ``UUID/random()``.
private struct UUIDClock {
    var milliseconds: UInt64 = 0
    var sequence: UInt64 = 0
    private var pool = [UInt64](repeating: 0, count: 128)
    private var used = 128

    /// The next word of the pool, refilled from the system's secure
    /// generator when it runs out.
    mutating func randomWord() -> UInt64 {
        if used == pool.count {
            pool.withUnsafeMutableBytes { SystemRandom.fill($0) }
            used = 0
        }
        defer { used += 1 }
        return pool[used]
    }
}

/// Bulk random bytes from the system's secure generator.
package enum SystemRandom {
    /// Fills `buffer` with one `arc4random_buf` call (glibc: `getrandom`)
    /// where the C library has it, else with the standard library's
    /// generator one word at a time.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
        guard let base = buffer.baseAddress else { return }
        arc4random_buf(base, buffer.count)
        #else
        var generator = SystemRandomNumberGenerator()
        for offset in buffer.indices { buffer[offset] = generator.next() }
        #endif
    }
}
