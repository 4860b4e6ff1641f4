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
/// remembered (about 40 bytes each). Identical records further apart in
/// the file than that are taken for one record, as they were before.
/// Exports list records by type and time, so copies of a sample are
/// neighbours.
struct OccurrenceWindow {
    /// A content's digest, its first 16 bytes.
    struct Key: Hashable {
        var high: UInt64
        var low: UInt64
    }

    let capacity: Int
    private var counts: [Key: UInt32] = [:]
    /// The keys in the order they were first seen, oldest first from `next`.
    private var ring: [Key] = []
    private var next = 0

    init(capacity: Int = 1 << 17) {
        self.capacity = max(1, capacity)
    }

    /// Counts one more occurrence of `key`; returns how many came before
    /// it (0 for the first).
    mutating func occurrence(of key: Key) -> UInt32 {
        if let seen = counts[key] {
            counts[key] = seen &+ 1
            return seen
        }
        if ring.count < capacity {
            ring.append(key)
        } else {
            counts[ring[next]] = nil
            ring[next] = key
            next = (next + 1) % capacity
        }
        counts[key] = 1
        return 0
    }
}
