import Anchorage
import AnchorageLog
import ArgumentParser
import Foundation

/// `anchorage purge --deleted-before DATE`: erases deleted samples' data.
struct PurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Erase the data of samples deleted before a date; the chain still verifies.",
        discussion: """
            The payloads of their saves are removed (their digests stay), then the data file is rewritten so no
            freed page keeps them. Purging is local: a peer that holds the data keeps it, but never sends it
            back, and the samples stay deleted.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "Purge samples deleted before this date (YYYY-MM-DD or ISO 8601).")
    var deletedBefore: String

    func validate() throws {
        guard TextForms.date(deletedBefore, in: TimeZone(identifier: "UTC")!) != nil else {
            throw ValidationError(
                "--deleted-before: \(deletedBefore) is not a date like 2024-06-01 or 2024-06-01T08:00:00Z"
            )
        }
    }

    func run() async throws {
        let date = TextForms.date(deletedBefore, in: TimeZone(identifier: "UTC")!) ?? .distantPast
        let purged = try await storeOptions.withStore(failure: "cannot purge") { store in
            try await store.purgeDeletedSamples(before: date)
        }
        do {
            try EventLog.compact(at: storeOptions.directory)
        } catch {
            throw CommandFailure(
                description:
                    "purged \(purged) samples, but the data file was not rewritten: \(ErrorWords.describe(error))"
            )
        }
        CLIOutput.current.line("purged the data of \(purged) deleted samples; the data file was rewritten")
    }
}
