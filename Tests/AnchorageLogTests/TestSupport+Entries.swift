import Foundation

@testable import AnchorageLog

// Ways to build and write entries by hand, for the tests that check the
// layouts and the chain from outside the writer.

extension LogEntry {
    /// A version-1 entry (its digest that of the payload alone), as tests build one.
    init(
        seq: UInt64,
        dot: Dot,
        timestamp: Int64,
        operation: EntryOperation,
        kind: EntryKind,
        id: UUID,
        payload: EntryPayload?,
        payloadDigest: EntryDigest,
        link: EntryDigest?
    ) {
        self.init(
            seq: seq,
            dot: dot,
            timestamp: timestamp,
            operation: operation,
            kind: kind,
            id: id,
            payload: payload,
            version: EntryFormat.plainVersion,
            salt: nil,
            storedDigest: payloadDigest,
            link: link
        )
    }

    /// The exchange form with the link the entry carries (zero when it
    /// carries none).
    func encoded() -> [UInt8] {
        encoded(link: link ?? .zero)
    }
}

extension EntryFormat {
    /// The link of an entry in the exchange form, hashed straight from its
    /// bytes as docs/log-format.md lays them out: the previous link, bytes
    /// 0..<2, 4..<56 and 60..<92. The field-based ``link(previous:header:)``
    /// must agree with it (tests check).
    static func link(previous: EntryDigest, entry: UnsafeRawBufferPointer) -> EntryDigest {
        withUnsafeTemporaryAllocation(byteCount: linkInputSize, alignment: 8) { input in
            previous.store(into: input, at: 0)
            input[32] = entry[0]
            input[33] = entry[1]
            UnsafeMutableRawBufferPointer(rebasing: input[34..<86])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: entry[4..<56]))
            UnsafeMutableRawBufferPointer(rebasing: input[86..<118])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: entry[60..<92]))
            return EntryDigest.of(UnsafeRawBufferPointer(input))
        }
    }
}

extension EventLog {
    /// `entry` as this store would store it at its position, storing
    /// `link` with it when given.
    func storedForm(of entry: LogEntry, link: EntryDigest?) throws -> [UInt8] {
        let header = entry.header
        let regionCount = (entry.payload?.count ?? 0) + (entry.salt == nil ? 0 : EntrySalt.size)
        switch layout {
        case .exchange:
            return entry.encoded(link: link ?? .zero)
        case .compact:
            let table = try read { txn in try origins.table(in: txn) }
            guard let number = table.number(of: entry.dot.origin) else {
                throw LogError(.invalidArgument, "origin \(entry.dot.origin) has no number in this store")
            }
            var bytes = [UInt8](
                repeating: 0,
                count: CompactLayout.size(
                    version: header.version,
                    isPurged: header.isPurged,
                    hasLink: link != nil,
                    regionCount: regionCount
                )
            )
            bytes.withUnsafeMutableBytes { buffer in
                if let payload = entry.payload {
                    payload.withUnsafeBytes {
                        CompactLayout.write(
                            header,
                            originNumber: number,
                            link: link,
                            salt: entry.salt,
                            payload: $0,
                            into: buffer
                        )
                    }
                } else {
                    CompactLayout.write(header, originNumber: number, link: link, salt: nil, payload: nil, into: buffer)
                }
            }
            return bytes
        }
    }
}
