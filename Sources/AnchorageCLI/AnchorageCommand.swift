import Anchorage
import AnchorageLog
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

    /// The store's directory.
    var directory: URL {
        store.map { URL(fileURLWithPath: $0) } ?? HKHealthStore.defaultDirectory
    }

    /// The store, opened (created if missing) to be written: by one process
    /// at a time.
    func openStore() -> HKHealthStore {
        HKHealthStore(directory: directory)
    }

    /// The store, opened for a command that only reads: beside a process
    /// that writes it (a running node), as LMDB allows. A store that a
    /// writer must settle first (indices of another version, a restored
    /// backup) is opened for writing when nobody else writes it.
    ///
    /// - Throws: ``CommandFailure`` when there is no store at the directory
    ///   (nothing is created) or it cannot be opened.
    func openStoreForReading() async throws -> HKHealthStore {
        let path = directory.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw CommandFailure(description: "no store at \(path); create one with `import`, `save` or `serve`")
        }
        var configuration = HKHealthStore.Configuration()
        configuration.readOnly = true
        let reading = HKHealthStore(directory: directory, configuration: configuration)
        do {
            try await reading.opened()
            return reading
        } catch {
            await reading.close()
            guard (error.underlyingError as? LogError)?.code == .needsWriter else {
                throw CommandFailure(description: error.message)
            }
        }
        let writing = HKHealthStore(directory: directory)
        do {
            try await writing.opened()
            return writing
        } catch {
            await writing.close()
            throw CommandFailure(description: error.message)
        }
    }
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
