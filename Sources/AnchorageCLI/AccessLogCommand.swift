import Anchorage
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage access-log`: the store's access log, one JSON object a line.
struct AccessLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "access-log",
        abstract: "Every recorded read of health data (who, what, when, how many), one JSON object a line.",
        discussion: "Entries are node-local: kept 90 days by default, never replicated (docs/store-format.md)."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The first instant or day, such as 2026-01-01 or 2026-01-01T08:00:00Z (UTC).")
    var from: String?

    @Option(help: "The instant or day the entries end before.")
    var to: String?

    @Option(help: "The most entries printed (1 to 1000000).")
    var limit: Int = 1_000

    func validate() throws {
        guard (1...1_000_000).contains(limit) else { throw ValidationError("--limit is from 1 to 1000000") }
        for (name, text) in [("--from", from), ("--to", to)] {
            if let text, TextForms.date(text, in: Self.utc) == nil {
                throw ValidationError(
                    "\(name) must be a day such as 2026-01-31 or an instant such as 2026-01-31T08:00:00Z"
                )
            }
        }
    }

    private static let utc = TimeZone(identifier: "UTC")!

    func run() async throws {
        let start = from.flatMap { TextForms.date($0, in: Self.utc) }
        let end = to.flatMap { TextForms.date($0, in: Self.utc) }
        let output = CLIOutput.current
        try await storeOptions.withStoreForReading(failure: "the access log could not be read") { store in
            let accessLog = AccessLog(log: try store.eventLog())
            var after: String?
            var left = limit
            repeat {
                let page = try accessLog.page(
                    after: after,
                    from: start,
                    to: end,
                    limit: min(left, AccessLog.maximumPageSize)
                )
                for entry in page.entries { output.write(Array(try entry.json()) + [UInt8(ascii: "\n")]) }
                left -= page.entries.count
                after = page.next
            } while after != nil && left > 0
        }
    }
}
