import Anchorage
import AnchorageLog
import ArgumentParser
import Foundation

/// `anchorage replay --to ANCHOR --into DIR`: the store as it was.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Build a new store holding the state as of an anchor: the entries up to it, every index rebuilt.",
        discussion: "Deterministic: two replays to one anchor print the same digest."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The anchor to stop at (from changes, export or history).")
    var to: String

    @Option(help: "A new directory for the replayed store.")
    var into: String

    func validate() throws {
        _ = try AnchorArgument.require(to, for: "--to")
    }

    func run() async throws {
        let output = CLIOutput.current
        let anchor = try AnchorArgument.require(to, for: "--to")
        try await storeOptions.withStoreForReading(failure: "cannot replay the store") { store in
            let replica = try await store.replay(to: anchor, into: URL(fileURLWithPath: into)) {
                output.status("\rreplayed \($0) entries…")
            }
            output.status("\r")
            let head = try replica.eventLog().head.seq
            output.line("replayed \(head) entries into \(into); digest \(try replica.stateDigest())")
            await replica.close()
        }
    }
}
