import Foundation

extension SampleBatch {
    /// Decodes a save request's body while it arrives: each sample of the
    /// common form (see ``SampleBatch/init(json:)``) is decoded as soon as
    /// its bytes are complete, so decoding overlaps receiving and the body
    /// is never copied again once received. Anything else — the
    /// `{"samples": [...]}` form, escapes, broken JSON — is decoded at the
    /// end by ``SampleBatch/init(json:)`` from the bytes received, with the
    /// same answers and errors.
    ///
    /// Each byte is scanned a bounded number of times, whatever the chunks'
    /// sizes, and nesting costs no stack.
    ///
    /// ```swift
    /// var reader = SampleBatch.Reader()
    /// for try await chunk in body { chunk.withUnsafeReadableBytes { reader.append($0) } }
    /// let batch = try reader.finish()
    /// ```
    public struct Reader {
        /// Every byte received: the reference decoder needs them all if
        /// the fast reader declines.
        private var bytes: [UInt8] = []
        private var objects: [HKObject] = []
        private var state = State.start
        /// The first byte not yet consumed by the fast reader.
        private var position = 0
        /// The structural scan of the element that starts at `position`.
        private var element = ElementScan()

        private enum State {
            /// Before the opening `[`.
            case start
            /// After `[` or `,`: an element next (or `]` right after `[`).
            case element(first: Bool)
            /// After an element: `,` or `]` next.
            case separator
            /// After the closing `]`: only whitespace may follow.
            case closed
            /// The fast reader declined: the reference decoder decides.
            case declined
        }

        /// A reader that has received nothing.
        public init() {}

        /// The number of bytes received so far.
        public var count: Int { bytes.count }

        /// The samples decoded so far, before ``finish()``.
        package var samplesRead: Int { objects.count }

        /// Makes room for `count` bytes in all (for a declared length; pass
        /// a bounded figure, since a client may declare more than it sends).
        public mutating func reserveCapacity(_ count: Int) {
            bytes.reserveCapacity(count)
        }

        /// Takes the next bytes of the body and decodes the samples they
        /// complete.
        public mutating func append(_ chunk: UnsafeRawBufferPointer) {
            bytes.append(contentsOf: chunk)
            advance()
        }

        /// The batch, once every byte has been appended.
        ///
        /// - Throws: what ``SampleBatch/init(json:)`` throws for the same
        ///   bytes.
        public consuming func finish() throws -> SampleBatch {
            if case .closed = state, objects.allSatisfy({ $0 is HKSample }), !objects.isEmpty {
                skipSpace()
                if position == bytes.count { return SampleBatch(checked: objects) }
            }
            return try SampleBatch(json: Data(bytes))
        }

        private mutating func advance() {
            while true {
                skipSpace()
                guard position < bytes.count else { return }
                let byte = bytes[position]
                switch state {
                case .start:
                    guard byte == UInt8(ascii: "[") else { return decline() }
                    position += 1
                    state = .element(first: true)
                case .element(let first):
                    if first && byte == UInt8(ascii: "]") {
                        position += 1
                        state = .closed
                        continue
                    }
                    guard let end = element.end(in: bytes, from: position) else {
                        if element.failed { decline() }
                        return  // the element is not complete yet
                    }
                    let object = bytes.withUnsafeBytes { all in
                        FastSampleReader.element(UnsafeRawBufferPointer(rebasing: all[position..<end]))
                    }
                    guard let object else { return decline() }
                    objects.append(object)
                    position = end
                    element = ElementScan()
                    state = .separator
                case .separator:
                    position += 1
                    switch byte {
                    case UInt8(ascii: ","): state = .element(first: false)
                    case UInt8(ascii: "]"): state = .closed
                    default: return decline()
                    }
                case .closed:
                    return decline()  // something after the closing bracket
                case .declined:
                    return
                }
            }
        }

        private mutating func decline() {
            state = .declined
            objects = []
        }

        private mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }
    }

    /// A batch of objects already checked to be samples, at least one.
    private init(checked objects: [HKObject]) {
        self.objects = objects
    }
}

/// Finds where a JSON object ends, scanning each byte once however the
/// bytes arrive: it keeps its place between calls.
struct ElementScan {
    /// The next byte to scan; `nil` before the first.
    private var scanned: Int?
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Whether the bytes cannot start or continue an object.
    private(set) var failed = false

    /// The end (one past the closing `}`) of the object starting at
    /// `start`, or `nil` while it is incomplete or when it is not an
    /// object (then ``failed``).
    mutating func end(in bytes: [UInt8], from start: Int) -> Int? {
        guard var next = scanned ?? (bytes[start] == UInt8(ascii: "{") ? start : nil) else {
            failed = true
            return nil
        }
        defer { scanned = next }
        while next < bytes.count {
            let byte = bytes[next]
            next += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return next }
            default: break
            }
        }
        return nil
    }
}
