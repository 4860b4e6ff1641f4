/// How many times each recent piece of content has been seen, so that
/// identical top-level records get distinct identifiers.
///
/// A real export can hold two byte-identical records (an app that saved
/// one sample twice): in HealthKit they were two samples. The first
/// occurrence keeps the identifier its content gives; the second and later
/// get one numbered by occurrence, in file order — so the file's counts
/// and sums survive, and importing it again finds the same identifiers.
///
/// Memory stays bounded: only the last ``capacity`` contents are
/// remembered (about 60 bytes each). Identical records further apart in
/// the file than that are taken for one record, as they were before.
/// Exports list records by type and time, so copies of a sample are
/// neighbours.
///
/// The counts are an open-addressing table with linear probing, indexed
/// by the key's own bits: a key is a SHA-256 digest, already uniform, so
/// hashing it again (as a `Dictionary` does, with a seeded SipHash) was
/// most of this type's cost, consulted once per record.
struct OccurrenceWindow {
    /// A content's digest, its first 16 bytes.
    struct Key: Hashable {
        var high: UInt64
        var low: UInt64
    }

    let capacity: Int
    /// The table: a slot is empty when its count is 0. Its size is a power
    /// of two, at least twice the keys it holds so that probes stay short;
    /// it grows with them, up to twice ``capacity``.
    private var keys: [Key]
    private var counts: [UInt32]
    private var mask: Int
    /// The keys in the order they were first seen, oldest first from `next`.
    private var ring: [Key] = []
    private var next = 0

    init(capacity: Int = 1 << 17) {
        self.capacity = max(1, capacity)
        let size = Self.initialSize
        keys = Array(repeating: Key(high: 0, low: 0), count: size)
        counts = Array(repeating: 0, count: size)
        mask = size - 1
    }

    /// The table's first size: a small export never pays for a large one.
    static var initialSize: Int { 1_024 }

    /// Counts one more occurrence of `key`; returns how many came before
    /// it (0 for the first).
    mutating func occurrence(of key: Key) -> UInt32 {
        var slot = home(key)
        while counts[slot] != 0 {
            if keys[slot] == key {
                let seen = counts[slot]
                // A count that would wrap stays at its maximum: it can never
                // become 0, which marks an empty slot.
                counts[slot] = seen == .max ? seen : seen + 1
                return seen
            }
            slot = (slot + 1) & mask
        }
        if ring.count < capacity {
            ring.append(key)
            if 2 * ring.count > keys.count {
                grow()
                slot = home(key)
                while counts[slot] != 0 { slot = (slot + 1) & mask }
            }
        } else {
            remove(ring[next])
            ring[next] = key
            next = (next + 1) % capacity
            // The removal may have moved keys into the slot found above.
            slot = home(key)
            while counts[slot] != 0 { slot = (slot + 1) & mask }
        }
        keys[slot] = key
        counts[slot] = 1
        return 0
    }

    /// Doubles the table and places every key again.
    private mutating func grow() {
        let oldKeys = keys
        let oldCounts = counts
        let size = 2 * oldKeys.count
        keys = Array(repeating: Key(high: 0, low: 0), count: size)
        counts = Array(repeating: 0, count: size)
        mask = size - 1
        for index in oldKeys.indices where oldCounts[index] != 0 {
            var slot = home(oldKeys[index])
            while counts[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[index]
            counts[slot] = oldCounts[index]
        }
    }

    /// The slot a key's probe starts at.
    private func home(_ key: Key) -> Int {
        Int(truncatingIfNeeded: key.high) & mask
    }

    /// Empties `key`'s slot and moves later keys of its probe run back, so
    /// that every remaining key stays reachable from its home slot.
    private mutating func remove(_ key: Key) {
        var hole = home(key)
        while counts[hole] != 0 && keys[hole] != key { hole = (hole + 1) & mask }
        guard counts[hole] != 0 else { return }
        counts[hole] = 0
        var slot = hole
        while true {
            slot = (slot + 1) & mask
            guard counts[slot] != 0 else { return }
            // The key at `slot` may fill the hole when the hole lies on its
            // probe path: cyclically from its home up to `slot`.
            let start = home(keys[slot])
            let distanceToSlot = (slot - start) & mask
            let distanceToHole = (hole - start) & mask
            if distanceToHole < distanceToSlot {
                keys[hole] = keys[slot]
                counts[hole] = counts[slot]
                counts[slot] = 0
                hole = slot
            }
        }
    }
}
