/// Prepares an export's bytes for the XML parser: blanks the prologue and
/// drops the control characters XML forbids.
///
/// Every export begins with an internal DTD (`<!DOCTYPE HealthData [ … ]>`)
/// that nothing needs, that Export Version 12 wrote malformed, and where
/// entity attacks (billion laughs, external entities) would live. The filter
/// turns everything before the root element's `<HealthData` into spaces,
/// keeping line breaks so the parser's line and column numbers stay those of
/// the file. With no DTD left, the parser knows no entity but XML's five, so
/// none can expand or load a file. The `HealthKit Export Version` comment of
/// the prologue is read on the way.
///
/// In the body, C0 control characters other than tab, line feed and
/// carriage return (older exports hold vertical tabs in values) are dropped,
/// as the readers that work with real exports do.
struct PrologueFilter {
    /// How much prologue is allowed before the root element: real ones are a
    /// few tens of kilobytes.
    static let prologueLimit = 16 << 20
    /// How much of the prologue is kept to look for the version comment.
    private static let keptPrologue = 256 << 10
    private static let root = Array("<HealthData".utf8)

    /// Whether the root element has been found.
    private(set) var inBody = false
    /// Prologue bytes seen so far.
    private(set) var prologueBytes = 0
    /// Bytes of the root element's name matched so far (at the end of the
    /// last chunk).
    private var matched = 0
    /// The start of the prologue, where the version comment is.
    private var prologue: [UInt8] = []
    /// Control characters dropped from the body.
    private(set) var droppedControlCharacters = 0
    /// For an export without a DTD (iOS 8 and 9): mends attribute names
    /// with spaces (``AttributeNameRepair``).
    private(set) var repair: AttributeNameRepair?

    /// The `HealthKit Export Version: N` of the prologue, once the body began.
    var exportVersion: Int? {
        let marker = Array("HealthKit Export Version:".utf8)
        guard prologue.count >= marker.count else { return nil }
        var index = 0
        while index + marker.count <= prologue.count {
            if prologue[index] == marker[0], Array(prologue[index..<index + marker.count]) == marker {
                var position = index + marker.count
                while position < prologue.count, prologue[position] == 0x20 { position += 1 }
                var value = 0
                var digits = 0
                while position < prologue.count, (0x30...0x39).contains(prologue[position]), digits < 6 {
                    value = value * 10 + Int(prologue[position] - 0x30)
                    position += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            index += 1
        }
        return nil
    }

    /// Whether `input`, read in the body, holds a character to drop: when it
    /// does not, the parser can read it as it is, without a copy.
    func needsFiltering(_ input: UnsafeRawBufferPointer) -> Bool {
        !inBody || repair != nil || Self.firstForbidden(in: input, from: 0) != nil
    }

    /// The first byte at or after `start` that XML 1.0 forbids (a C0 control
    /// character other than tab, line feed and carriage return). They are
    /// rare, so eight bytes are checked at a time: a word with no byte below
    /// 0x20 is passed over at once, one with a line break is looked at byte
    /// by byte.
    static func firstForbidden(in input: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = input.baseAddress else { return nil }
        var index = start
        while index < input.count {
            if index + 8 <= input.count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // Non-zero when some byte may be below 0x20 (never misses one).
                if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            for offset in index..<min(index + 8, input.count) {
                let byte = input[offset]
                if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return offset }
            }
            index += 8
        }
        return nil
    }

    /// Filters `input`, appending what the parser should read to `output`.
    ///
    /// - Throws: ``ImportError/Code/notAnExport`` when the prologue runs
    ///   past ``prologueLimit`` without a `HealthData` element.
    mutating func filter(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) throws(ImportError) {
        var start = 0
        if !inBody {
            start = try skipPrologue(input, into: &output)
            guard inBody else { return }
            if !Self.contains(Array("<!DOCTYPE".utf8), in: prologue) {
                repair = AttributeNameRepair(line: 1 + prologue.lazy.filter { $0 == 0x0A }.count)
            }
        }
        let body = UnsafeRawBufferPointer(rebasing: input[start...])
        if repair != nil {
            repair?.repair(body, into: &output, dropped: &droppedControlCharacters)
        } else {
            dropControlCharacters(body, into: &output)
        }
    }

    /// Blanks prologue bytes until the root element; returns where the body
    /// starts in `input` (its end when the prologue goes on).
    private mutating func skipPrologue(
        _ input: UnsafeRawBufferPointer,
        into output: inout [UInt8]
    ) throws(ImportError) -> Int {
        let root = Self.root
        var index = 0
        while index < input.count {
            let byte = input[index]
            if matched == root.count {
                // `<HealthData` must be followed by a space, `>` or `/`.
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x3E || byte == 0x2F {
                    output.append(contentsOf: root)
                    inBody = true
                    return index
                }
                blank(root, into: &output)
                matched = 0
            }
            if byte == root[matched] {
                matched += 1
            } else {
                blank(root[0..<matched], into: &output)
                if byte == root[0] {
                    matched = 1
                } else {
                    matched = 0
                    blank(CollectionOfOne(byte), into: &output)
                }
            }
            index += 1
        }
        if prologueBytes > Self.prologueLimit {
            throw ImportError(
                .notAnExport,
                "no HealthData element in the first \(Self.prologueLimit >> 20) MB: this is not the export.xml of "
                    + "the Health app (give the export.zip, or the export.xml inside its apple_health_export folder)"
            )
        }
        return input.count
    }

    private static func contains(_ marker: [UInt8], in bytes: [UInt8]) -> Bool {
        guard bytes.count >= marker.count else { return false }
        for index in 0...(bytes.count - marker.count) where bytes[index] == marker[0] {
            if bytes[index..<index + marker.count].elementsEqual(marker) { return true }
        }
        return false
    }

    /// Writes `bytes` as spaces, keeping line breaks, and remembers them.
    private mutating func blank<C: Collection<UInt8>>(_ bytes: C, into output: inout [UInt8]) {
        prologueBytes += bytes.count
        for byte in bytes {
            if prologue.count < Self.keptPrologue { prologue.append(byte) }
            output.append(byte == 0x0A || byte == 0x0D ? byte : 0x20)
        }
    }

    /// Copies `input` to `output` without the control characters XML forbids.
    private mutating func dropControlCharacters(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        guard let base = input.baseAddress else { return }
        var clean = 0
        while let forbidden = Self.firstForbidden(in: input, from: clean) {
            output.append(contentsOf: UnsafeRawBufferPointer(start: base + clean, count: forbidden - clean))
            droppedControlCharacters += 1
            clean = forbidden + 1
        }
        output.append(contentsOf: UnsafeRawBufferPointer(start: base + clean, count: input.count - clean))
    }
}
