import Anchorage
import AnchorageLog
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage export`: the log as JSON lines, streaming, resumable.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the log as JSON lines: each entry's header, its object's JSON form, and its exact bytes.",
        discussion: """
            One line per entry, in log order, up to the head when the export began. Resume with --since and the last
            line's "anchor". The "entry" field
            holds the entry's stored bytes (base64), so `anchorage import-log` rebuilds an identical log.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "Start after this anchor (a line's \"anchor\", or an anchored query's).")
    var since: String?

    @Option(help: "The format: ndjson.")
    var format = "ndjson"

    func validate() throws {
        guard format == "ndjson" else { throw ValidationError("--format: the log exports as ndjson") }
        if let since {
            do {
                _ = try Anchor(parsing: since)
            } catch {
                throw ValidationError("--since: \(error.message)")
            }
        }
    }

    func run() async throws {
        let output = CLIOutput.current
        try await storeOptions.withStoreForReading(failure: "cannot export the log", recordsReads: true) { store in
            let log = try store.eventLog()
            var anchor = try since.map { try Anchor(parsing: $0) }
            // The export ends at the head when it began, which the access
            // log records before the first line is written.
            let first = try log.position(of: anchor)  // refuses another store's anchor
            let head = log.head
            let total = Int(head.seq - min(first, head.seq))
            try await store.recordRead(
                AccessRecord(
                    principal: "",
                    action: "anchorage export",
                    types: [],
                    since: since,
                    until: head.stringValue,
                    count: total
                )
            )
            var writer = LogExportWriter(previousLink: try log.link(at: first))
            var exported = 0
            var bytes: [UInt8] = []
            var left = total
            while left > 0 {
                let page = try log.entries(after: anchor, limit: min(1_000, left))
                bytes.removeAll(keepingCapacity: true)
                for entry in page.entries {
                    try writer.append(entry, anchor: log.anchor(atSeq: entry.seq), to: &bytes)
                }
                if !bytes.isEmpty { output.write(bytes) }
                exported += page.entries.count
                left -= page.entries.count
                output.status("\rexported \(exported) entries…")
                anchor = page.next
                if !page.hasMore || page.entries.isEmpty { break }
            }
            output.status("\rexported \(exported) entries\n")
        }
    }
}

/// `anchorage import-log`: reads `export`'s lines into an empty store.
struct ImportLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-log",
        abstract: "Read an exported log (JSON lines) into an empty store; the result has the same digest.",
        discussion: "Each entry keeps its dot and origin time; its bytes, digests and hash link are checked."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The exported log (- for standard input).")
    var file: String

    struct Line: Decodable {
        var seq: UInt64
        var entry: String
    }

    func run() async throws {
        let output = CLIOutput.current
        try await storeOptions.withStore(failure: "cannot import the log") { store in
            let log = try store.eventLog()
            guard log.head.seq == 0 else {
                throw CommandFailure(
                    description:
                        "the store at \(storeOptions.directory.path) is not empty; import a log into a new store"
                )
            }
            let handle =
                file == "-" ? FileHandle.standardInput : try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
            var batch: [LogEntry] = []
            var imported = 0
            var number = 0
            var pending: [UInt8] = []
            func take(_ text: ArraySlice<UInt8>) throws {
                number += 1
                guard !text.isEmpty else { return }
                guard let line = try? JSONDecoder().decode(Line.self, from: Data(text)),
                    let bytes = Data(base64Encoded: line.entry)
                else { throw CommandFailure(description: "line \(number) is not an exported entry") }
                do {
                    batch.append(try LogEntry(seq: line.seq, encoded: Array(bytes)))
                } catch {
                    throw CommandFailure(description: "line \(number): \(error.message)")
                }
            }
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                pending += chunk
                var start = pending.startIndex
                while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    try take(pending[start..<newline])
                    start = newline + 1
                }
                pending.removeSubrange(..<start)
                if batch.count >= 5_000 {
                    imported += try await log.apply(batch).applied
                    batch.removeAll(keepingCapacity: true)
                    output.status("\rimported \(imported) entries…")
                }
            }
            try take(pending[...])
            imported += try await log.apply(batch).applied
            output.status("\r")
            output.line("imported \(imported) entries; digest \(try store.stateDigest())")
        }
    }
}
