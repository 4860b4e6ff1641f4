public import AnchorageLog
import AnchorageModel
import Foundation

/// Writes log entries as the JSON lines of `anchorage export`: each
/// entry's header, its object's JSON form (docs/json-format.md) and its
/// exchange form (base64, docs/log-format.md), so that `anchorage
/// import-log` rebuilds an identical log. Written as bytes; the object is decoded once, for its
/// JSON form.
///
/// ```swift
/// var writer = LogExportWriter(previousLink: try log.link(at: 0))
/// var bytes: [UInt8] = []
/// for entry in page.entries { try writer.append(entry, anchor: log.anchor(atSeq: entry.seq), to: &bytes) }
/// ```
public struct LogExportWriter {
    private var objects = HealthObjectWriter()
    private var decoder = PayloadDecoder()
    /// The link of the entry before the next one.
    private var previousLink: EntryDigest

    /// A writer with empty memos, for entries that follow the one whose
    /// link is `previousLink` (zero: the log's start; else
    /// ``EventLog/link(at:)`` of the position the export starts after).
    public init(previousLink: EntryDigest = .zero) {
        self.previousLink = previousLink
    }

    /// Appends `entry` as one line, with its newline. Entries must come in
    /// log order, none left out, so the links follow one another.
    public mutating func append(_ entry: LogEntry, anchor: Anchor, to bytes: inout [UInt8]) throws {
        let entry = entry.withPayloadDigest()  // hashed once for the link, the line and the bytes
        let link = entry.link ?? entry.link(after: previousLink)
        previousLink = link
        func text(_ value: String) {
            bytes.append(contentsOf: value.utf8)
        }
        func number(_ value: some BinaryInteger) {
            bytes.append(contentsOf: String(value).utf8)
        }
        text(#"{"anchor":""#)
        text(anchor.stringValue)
        text(#"","seq":"#)
        number(entry.seq)
        text(#","origin":""#)
        entry.dot.origin.uuid.appendText(to: &bytes, lowercase: true)  // StoreID's description
        text(#"","counter":"#)
        number(entry.dot.counter)
        text(#","time":"#)
        number(entry.timestamp)
        text(entry.operation == .save ? #","operation":"save","kind":"# : #","operation":"delete","kind":"#)
        number(entry.kind.rawValue)
        text(#","id":""#)
        entry.id.appendText(to: &bytes)
        text(#"","payloadDigest":""#)
        text(entry.payloadDigest.description)
        text(#"","link":""#)
        text(link.description)
        text(#"""#)
        if entry.isPurged { text(#","purged":true"#) }
        if let payload = entry.payload,
            let object = payload.withUnsafeBytes({ try? decoder.decode($0) })
        {
            text(#","object":"#)
            try objects.append(object, to: &bytes)
        }
        text(#","entry":""#)
        Base64Appender.append(entry.encoded(link: link), to: &bytes)
        text("\"}\n")
    }
}
