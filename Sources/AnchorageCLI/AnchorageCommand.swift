public import ArgumentParser
import Foundation

/// `anchorage`: the command line of an Anchorage store. Thin: the work is
/// done by the libraries.
///
/// Exit codes: 0 success, 1 a runtime error (the message says what went
/// wrong), 2 a usage error.
public struct AnchorageCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "anchorage",
        abstract: "HealthKit's data model and queries on an event-sourced store.",
        subcommands: [
            DemoCommand.self, ServeCommand.self, ImportCommand.self, StatsCommand.self, ChangesCommand.self,
            SamplesCommand.self,
            SourcesCommand.self, SaveCommand.self, DeleteCommand.self, SyncCommand.self, AuditCommand.self,
            DigestCommand.self, RebuildCommand.self, ExportCommand.self, ImportLogCommand.self,
            HistoryCommand.self, ReplayCommand.self, PurgeCommand.self, ActivityCommand.self,
        ]
    )

    public init() {}
}

/// The store a command works on.
struct StoreOptions: ParsableArguments {
    @Option(help: "The store's directory (default: $ANCHORAGE_STORE, else ./anchorage-data).")
    var store: String?
}

/// A runtime failure, reported with exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}
