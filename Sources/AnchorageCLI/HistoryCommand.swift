import Anchorage
import AnchorageLog
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage history UUID`: every entry that touched an object.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Every entry that touched an object: saves, deletes, replacements, associations.",
        discussion:
            "Each with its anchor, its dot (the store that made it, and its number there), origin time and principal."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The object's uuid.")
    var uuid: String

    @Option(help: "table or json.")
    var format = "table"

    func validate() throws {
        guard UUID(uuidString: uuid) != nil else { throw ValidationError("\(uuid) is not a uuid") }
        guard ["table", "json"].contains(format) else { throw ValidationError("--format is table or json") }
    }

    func run() async throws {
        let steps = try await storeOptions.withStoreForReading(failure: "cannot read the history") { store in
            try store.history(of: UUID(uuidString: uuid)!)
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
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
            output.line(String(cells.joined(separator: "  ").reversed().drop { $0 == " " }.reversed()))
        }
    }
}
