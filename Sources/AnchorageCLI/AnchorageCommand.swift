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
            SamplesCommand.self, RouteCommand.self, ElectrocardiogramCommand.self, HeartbeatsCommand.self,
            SourcesCommand.self, SaveCommand.self, DeleteCommand.self, SyncCommand.self, AuditCommand.self,
            DigestCommand.self, RebuildCommand.self, ExportCommand.self, ImportLogCommand.self,
            HistoryCommand.self, ReplayCommand.self, PurgeCommand.self, MigrateCommand.self, ActivityCommand.self,
            StoresCommand.self, BackupCommand.self,
            KeysCommand.self,
            TokensCommand.self, PeersCommand.self, AccessLogCommand.self, FleetCommand.self, FollowStoresCommand.self,
        ]
    )

    public init() {}
}

/// A runtime failure, reported with exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

extension AnchorageCommand {
    /// What to print for a usage error (exit status 2): the message, then
    /// the usage of the command it concerns — also when `command`'s `run()`
    /// found it, where ArgumentParser would show the top-level usage.
    ///
    /// ```swift
    /// catch { print(AnchorageCommand.usageMessage(for: error, from: type(of: command))) }
    /// ```
    public static func usageMessage(for error: any Error, from command: (any ParsableCommand.Type)?) -> String {
        guard let command, command != AnchorageCommand.self else { return fullMessage(for: error) }
        let name = command.configuration.commandName.map { "anchorage \($0)" } ?? "anchorage"
        let words = message(for: error)
        return """
            Error: \(words)
            Usage: \(usageString(for: command))
              See '\(fullCommandName(of: command) ?? name) --help' for more information.
            """
    }

    /// `anchorage audit verify` for AuditVerifyCommand: the names down the tree.
    private static func fullCommandName(of command: any ParsableCommand.Type) -> String? {
        func path(from node: any ParsableCommand.Type) -> [String]? {
            if node == command { return [node.configuration.commandName ?? "anchorage"] }
            for child in node.configuration.subcommands {
                if let rest = path(from: child) { return [node.configuration.commandName ?? "anchorage"] + rest }
            }
            return nil
        }
        return path(from: AnchorageCommand.self)?.joined(separator: " ")
    }
}
