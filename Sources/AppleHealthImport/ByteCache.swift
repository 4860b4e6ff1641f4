#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values derived from attribute bytes, remembered by those bytes: an
/// export repeats a handful of types, units, sources and devices millions
/// of times, usually in runs, so the last one is checked first.
struct ByteCache<Value> {
    /// At most this many entries; a file with more distinct values starts
    /// the cache afresh instead of growing without bound.
    static var capacity: Int { 4_096 }

    private var last: (key: [UInt8], value: Value)?
    private var entries: [[UInt8]: Value] = [:]

    /// The value for `key`, made by `make` the first time.
    mutating func value(for key: ArraySlice<UInt8>, _ make: () -> Value) -> Value {
        if let last, Self.equal(last.key, key) { return last.value }
        let bytes = Array(key)
        let value: Value
        if let known = entries[bytes] {
            value = known
        } else {
            value = make()
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[bytes] = value
        }
        last = (bytes, value)
        return value
    }

    /// Whether the two hold the same bytes: one `memcmp` (a device's
    /// description is some 150 bytes, compared for nearly every record).
    private static func equal(_ array: [UInt8], _ slice: ArraySlice<UInt8>) -> Bool {
        guard array.count == slice.count else { return false }
        return array.withUnsafeBytes { left in
            slice.withUnsafeBytes { right in
                left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
    }
}
