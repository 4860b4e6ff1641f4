/// Mends the oldest exports' attribute names: iOS 8 and 9 wrote third-party
/// metadata keys with spaces as attribute names
/// (`<Record … Health Mate App Version="2.6.2"/>`), which no XML parser
/// reads past — libxml2's recovery loses the rest of the file. Inside a
/// start tag, outside quoted values, the spaces between the words of such a
/// name become `_` (`Health_Mate_App_Version`), one byte for one, so line
/// and column numbers stay the file's. Nothing else changes.
///
/// Only for exports without a DTD (iOS 8 and 9 wrote none, every later one
/// does): it looks at every byte, which the newer, much larger exports do
/// not need. It keeps its state from chunk to chunk.
struct AttributeNameRepair {
    private enum Place {
        /// Between tags.
        case text
        /// Just after `<`.
        case tagOpen
        /// In a start tag's element name.
        case elementName
        /// In a start tag, outside quoted values.
        case attributes
        /// In a quoted value, with its quote.
        case quoted(UInt8)
        /// In an end tag, comment, processing instruction or declaration.
        case otherMarkup
    }

    private var place = Place.text
    /// Whether the last token in the tag is a name not yet followed by `=`.
    private var afterBareName = false
    /// Spaces after a bare name, held until the next byte tells whether
    /// they separate the words of one name.
    private var pendingSpaces = 0
    /// Whether the current name was mended already (counted once).
    private var mendingName = false
    /// The line being read, for the line of the first mended name.
    private var line: Int

    /// A repair of a body starting on line `line` of the file.
    init(line: Int) {
        self.line = line
    }

    /// Names mended, and the line of the first.
    private(set) var mended = 0
    private(set) var firstMendedLine: Int?

    /// Appends `input` to `output`, mended; control characters XML forbids
    /// are dropped, and counted in `dropped`.
    ///
    /// Text, quoted values and other markup only end at one byte: their
    /// runs of printable bytes are copied at once, and every other byte
    /// (a terminator, a line feed, a control character, and everything in a
    /// start tag outside quotes) goes through ``step(_:into:dropped:)``.
    mutating func repair(_ input: UnsafeRawBufferPointer, into output: inout [UInt8], dropped: inout Int) {
        output.reserveCapacity(output.count + input.count)
        var index = 0
        while index < input.count {
            if let terminator = runTerminator {
                var end = index
                while end < input.count && input[end] >= 0x20 && input[end] != terminator { end += 1 }
                if end > index {
                    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[index..<end]))
                    index = end
                    continue
                }
            }
            step(input[index], into: &output, dropped: &dropped)
            index += 1
        }
    }

    /// The one byte that ends the place being read, where only one does.
    private var runTerminator: UInt8? {
        switch place {
        case .text: 0x3C
        case .quoted(let quote): quote
        case .otherMarkup: 0x3E
        case .tagOpen, .elementName, .attributes: nil
        }
    }

    /// Reads one byte.
    private mutating func step(_ byte: UInt8, into output: inout [UInt8], dropped: inout Int) {
        if byte == 0x0A { line += 1 }
        if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
            dropped += 1
            return
        }
        switch place {
        case .text:
            if byte == 0x3C { place = .tagOpen }
            output.append(byte)
        case .tagOpen:
            place = byte == 0x2F || byte == 0x3F || byte == 0x21 ? .otherMarkup : .elementName
            if byte == 0x3E { place = .text }
            output.append(byte)
        case .otherMarkup:
            if byte == 0x3E { place = .text }
            output.append(byte)
        case .elementName:
            if Self.isSpace(byte) {
                place = .attributes
                afterBareName = false
            } else if byte == 0x3E {
                place = .text
            }
            output.append(byte)
        case .quoted(let quote):
            if byte == quote { place = .attributes }
            output.append(byte)
        case .attributes:
            attribute(byte, into: &output)
        }
    }

    private mutating func attribute(_ byte: UInt8, into output: inout [UInt8]) {
        if byte == 0x20 && afterBareName {
            pendingSpaces += 1
            return
        }
        let continuesName =
            !Self.isSpace(byte) && byte != 0x3D && byte != 0x22 && byte != 0x27 && byte != 0x2F
            && byte != 0x3E
        if pendingSpaces > 0 {
            // A word after a name's word and spaces: one name with spaces.
            let mend = continuesName
            if mend && !mendingName {
                mended += 1
                if firstMendedLine == nil { firstMendedLine = line }
                mendingName = true
            }
            output.append(contentsOf: repeatElement(mend ? 0x5F : 0x20, count: pendingSpaces))
            pendingSpaces = 0
        }
        switch byte {
        case 0x22, 0x27:
            place = .quoted(byte)
            afterBareName = false
            mendingName = false
        case 0x3E:
            place = .text
            afterBareName = false
            mendingName = false
        case 0x3D:
            afterBareName = false
            mendingName = false
        default:
            if continuesName {
                afterBareName = true
            } else if !Self.isSpace(byte) {
                afterBareName = false
                mendingName = false
            }
        }
        output.append(byte)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
