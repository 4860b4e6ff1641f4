import AnchorageLog
import ArgumentParser
import Foundation

/// `anchorage backup DEST`: a consistent, log-only copy of a store.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the store's log into a new directory, beside a running node.",
        discussion: """
            The copy holds the log alone (data.mdb): its first open rebuilds the indices and statistics views,
            and starts a new incarnation, so anchors of the original are refused by it and it never reuses a
            dot. Open it as a store to restore, or serve it as a peer. A sealed store's copy holds only
            envelopes, clear headers and (with --with-projections) sealed projections, needs no key to be made,
            and is erased with the rest when the store's data key is shredded.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The new directory for the copy (it must not hold a store).")
    var destination: String

    @Flag(help: "Copy the indices and statistics views too (sealed, for a sealed store): no rebuild on restore.")
    var withProjections = false

    func run() throws {
        let directory = storeOptions.directory
        var configuration = EventLog.Configuration()
        do {
            // A sealed store is copied without its key: envelopes, clear
            // headers and (with --with-projections) sealed projections.
            if let keyID = try EventLog.sealingKeyID(at: directory) { configuration.sealing = .keyless(keyID) }
            let log = try EventLog.openForReading(at: directory, configuration: configuration)
            try log.backup(to: URL(fileURLWithPath: destination), includingProjections: withProjections)
            CLIOutput.current.line(
                "backed up \(log.head.seq) entries of store \(log.storeID) to \(destination)"
                    + (withProjections ? "" : " (the log alone: the copy's first open rebuilds the indices)")
            )
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(description: "cannot back up the store: \(ErrorWords.describe(error))")
        }
    }
}
