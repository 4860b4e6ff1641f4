import Foundation
import Synchronization

/// A flag set once, read from any thread.
final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// A counter added to on one thread and read on others.
final class AtomicCounter: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ amount: Int) { value.add(amount, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// An input stream that counts the bytes read through it.
final class CountingInputStream: InputStream {
    private let base: InputStream
    private let counter: AtomicCounter

    init(_ base: InputStream, counter: AtomicCounter) {
        self.base = base
        self.counter = counter
        super.init(data: Data())
    }

    override func open() { base.open() }
    override func close() { base.close() }
    override var hasBytesAvailable: Bool { base.hasBytesAvailable }
    override var streamStatus: Stream.Status { base.streamStatus }
    override var streamError: (any Error)? { base.streamError }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        let count = base.read(buffer, maxLength: len)
        if count > 0 { counter.add(count) }
        return count
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }
}
