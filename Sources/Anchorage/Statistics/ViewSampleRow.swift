import AnchorageModel
import Foundation

/// The value of an `st.samples` row (its key is kind ‖ start ‖ seq): end
/// (IEEE bits of reference-date seconds, 8) ‖ value in the type's canonical
/// unit (8) ‖ source number (4) ‖ flags (1; bit 0: entered by hand).
struct ViewSampleRow {
    var end: Double
    var value: Double
    var source: UInt32
    var userEntered: Bool

    static let size = 21

    /// A row's key, parsed: kind ‖ start (an ``IndexKey`` date) ‖ seq.
    struct Key: Hashable {
        var kind: UInt32
        var start: UInt64
        var seq: UInt64
    }

    init(end: Double, value: Double, source: UInt32, userEntered: Bool) {
        self.end = end
        self.value = value
        self.source = source
        self.userEntered = userEntered
    }

    /// Reads a row; `nil` for bytes of the wrong size.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count == Self.size else { return nil }
        end = Double(bitPattern: bytes.uint64(at: 0))
        value = Double(bitPattern: bytes.uint64(at: 8))
        source = bytes.uint32(at: 16)
        userEntered = bytes[20] & 1 != 0
    }

    /// Calls `body` with the row's bytes in a temporary buffer.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: Self.size, alignment: 8) { buffer in
            buffer.storeBytes(of: end.bitPattern.bigEndian, toByteOffset: 0, as: UInt64.self)
            buffer.storeBytes(of: value.bitPattern.bigEndian, toByteOffset: 8, as: UInt64.self)
            buffer.storeBytes(of: source.bigEndian, toByteOffset: 16, as: UInt32.self)
            buffer[20] = userEntered ? 1 : 0
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }
}
