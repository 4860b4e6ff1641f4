import AnchorageLog
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage stores migrate`: every store of a multi-store node in the
/// newest log format.
struct StoresMigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Rewrite every store of a stopped multi-store node in log format 2, one after another.",
        discussion: """
            As `anchorage migrate` does for one store; the node must not be running. A store that fails (it does \
            not verify, or is in use) is reported and the others go on; the exit status is then 1.
            """
    )

    @OptionGroup var node: NodeRootOption

    func run() throws {
        let registry = try node.registry()
        let output = CLIOutput.current
        var failed: [String] = []
        let active = try registryCall({ () throws(ServiceError) in try registry.stores() }).filter {
            $0.state == .active
        }
        for record in active {
            let directory = registry.directory(of: try StoreName(record.id))
            guard FileManager.default.fileExists(atPath: directory.appending(path: "data.mdb").path) else {
                output.line("\(record.id): nothing stored yet")
                continue
            }
            do {
                output.line("\(record.id): " + MigrateCommand.describe(try EventLog.migrate(at: directory)))
            } catch {
                output.line("\(record.id): cannot migrate: \(ErrorWords.describe(error))")
                failed.append(record.id)
            }
        }
        guard failed.isEmpty else {
            throw CommandFailure(
                description:
                    "\(failed.count) of \(active.count) stores were not migrated: \(failed.joined(separator: ", "))"
            )
        }
    }
}
