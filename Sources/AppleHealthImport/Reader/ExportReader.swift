import Foundation
import Synchronization

/// Reads an export on a thread of its own and hands over its top-level
/// elements in batches. The thread waits while two batches are unconsumed,
/// so memory stays bounded by the batch size whatever the size of the file.
final class ExportReader: Sendable {
    private let source: ExportSource
    private let batchSize: Int
    private let slots = DispatchSemaphore(value: 2)
    private let cancelled = Atomic<Bool>(false)
    private let counters = Mutex(Counters())

    /// What the reader has seen so far.
    struct Counters: Sendable {
        /// Bytes of XML read.
        var bytesRead = 0
        /// The prologue's `HealthKit Export Version`.
        var exportVersion: Int?
        /// Control characters dropped from values.
        var droppedControlCharacters = 0
        /// Places the file is not well-formed, read past; the first's line.
        var recovered = 0
        var firstRecoveredLine: Int?
        /// Attribute names with spaces mended; the first's line.
        var mendedNames = 0
        var firstMendedLine: Int?
    }

    init(source: ExportSource, batchSize: Int) {
        self.source = source
        self.batchSize = batchSize
    }

    /// What the reader has seen so far.
    var progress: Counters { counters.withLock { $0 } }

    /// The elements in batches; iterating to the end reads the whole file.
    func batches() -> AsyncThrowingStream<ElementBatch, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ElementBatch.self)
        continuation.onTermination = { [self] _ in
            cancelled.store(true, ordering: .relaxed)
            slots.signal()
        }
        let thread = Thread { [self] in
            do {
                try run(continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "anchorage.import.reader"
        thread.stackSize = 4 << 20
        thread.start()
        return stream
    }

    /// Marks one batch as consumed, letting the reader go on.
    func consumed() {
        slots.signal()
    }

    private func run(_ continuation: AsyncThrowingStream<ElementBatch, any Error>.Continuation) throws(ImportError) {
        let parser = try ExportParser(batchSize: batchSize) { [self] batch in
            slots.wait()
            guard !cancelled.load(ordering: .relaxed) else { return false }
            continuation.yield(batch)
            return true
        }
        try parser.parse(source) { count in
            counters.withLock { $0.bytesRead += count }
            return !cancelled.load(ordering: .relaxed)
        }
        counters.withLock {
            $0.exportVersion = parser.exportVersion
            $0.droppedControlCharacters = parser.droppedControlCharacters
            $0.recovered = parser.recovered.count
            $0.firstRecoveredLine = parser.recovered.firstLine
            $0.mendedNames = parser.mendedNames.count
            $0.firstMendedLine = parser.mendedNames.firstLine
        }
    }
}
