import Anchorage
import AnchorageLog
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage history UUID`: every entry that touched an object.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract:
            "Every entry that touched an object: saves, deletes, replacements, associations; or the fleet's epochs.",
        discussion:
            "Each with its anchor, its dot (the store that made it, and its number there), origin time and principal."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The object's uuid.")
    var uuid: String?

    @Flag(help: "Instead of an object's history, the store's fleet epochs: who was primary from which entry on.")
    var epochs = false

    @Option(help: "table or json.")
    var format = "table"

    func validate() throws {
        switch (uuid, epochs) {
        case (nil, false): throw ValidationError("give an object's uuid, or --epochs")
        case (.some, true): throw ValidationError("give an object's uuid or --epochs, not both")
        case (let text?, false) where UUID(uuidString: text) == nil: throw ValidationError("\(text) is not a uuid")
        default: break
        }
        guard ["table", "json"].contains(format) else { throw ValidationError("--format is table or json") }
    }

    func run() async throws {
        guard let uuid, let id = UUID(uuidString: uuid) else { return try await printEpochs() }
        let steps = try await storeOptions.withStoreForReading(failure: "cannot read the history") { store in
            try store.history(of: id)
        }
        let output = CLIOutput.current
        if format == "json" {
            let encoder = CanonicalJSON.encoder()
            encoder.dateEncodingStrategy = .iso8601
            output.line(String(decoding: try encoder.encode(steps), as: UTF8.self))
            return
        }
        // Left-aligned columns; the anchor last, to pass to `replay --to` or `changes --since`.
        var rows = [["seq", "action", "origin", "counter", "time", "principal", "anchor"]]
        for step in steps {
            let action =
                step.syncVersion.map { "\(step.action.rawValue) v\(NumberText.readable($0))" } ?? step.action.rawValue
            rows.append([
                String(step.seq), action, step.origin.description, String(step.counter),
                step.date.formatted(.iso8601), step.source ?? "-", step.anchor,
            ])
        }
        Self.printTable(rows)
    }

    /// `--epochs`: the fleet epochs in log order.
    private func printEpochs() async throws {
        let epochs = try await storeOptions.withStoreForReading(failure: "cannot read the fleet's epochs") { store in
            try store.fleetEpochHistory()
        }
        if format == "json" {
            struct Row: Encodable {
                var seq: UInt64
                var epoch: UInt64
                var primary: String
                var revision: Int64
            }
            let rows = epochs.map {
                Row(seq: $0.seq, epoch: $0.epoch.epoch, primary: $0.epoch.primary, revision: $0.epoch.revision)
            }
            CLIOutput.current.line(String(decoding: try CanonicalJSON.encoder().encode(rows), as: UTF8.self))
            return
        }
        guard !epochs.isEmpty else {
            CLIOutput.current.line("no fleet epochs: this store was never a fleet copy")
            return
        }
        var rows = [["seq", "epoch", "primary", "revision"]]
        for (seq, epoch) in epochs {
            rows.append([String(seq), String(epoch.epoch), epoch.primary, String(epoch.revision)])
        }
        Self.printTable(rows)
    }

    private static func printTable(_ rows: [[String]]) {
        for line in TextTable.leftAligned(rows) { CLIOutput.current.line(line) }
    }
}
