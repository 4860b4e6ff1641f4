import AnchorageLog
import ArgumentParser
import Foundation

/// `anchorage migrate`: rewrites a closed store in the newest log format.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Rewrite a store of log format 1 in format 2 (smaller entries); anchors, digests and links stay.",
        discussion: """
            The store must not be open: stop the node that serves it first. The log is verified, then rewritten in \
            one transaction (a crash leaves it in format 1 or migrated, never between), then the data file is \
            compacted. Entries written before keep their version-1 digests; new ones are salted \
            (docs/log-format.md). A store already in format 2 is left as it is.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let output = CLIOutput.current
        let report: EventLog.MigrationReport
        do {
            report = try EventLog.migrate(at: storeOptions.directory) { count in
                output.status("\rrewrote \(count) entries…")
            }
        } catch {
            throw CommandFailure(description: "cannot migrate: \(ErrorWords.describe(error))")
        }
        output.line(Self.describe(report))
    }

    /// What a migration did, in the words both migrate commands print.
    static func describe(_ report: EventLog.MigrationReport) -> String {
        guard report.entries > 0 || report.fromFormat != report.toFormat else {
            return "already in log format \(report.toFormat); nothing to do"
        }
        return "migrated from log format \(report.fromFormat) to \(report.toFormat): \(report.entries) entries; "
            + "data file \(report.bytesBefore) → \(report.bytesAfter) bytes"
    }
}
