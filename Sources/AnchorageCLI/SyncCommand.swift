import Anchorage
import AnchorageLog
import AnchorageSync
import ArgumentParser
import Foundation
import Logging

/// `anchorage sync`: replicates the store with a peer node once, or
/// follows it until interrupted (docs/sync-protocol.md).
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Replicate the store with a peer node: once, or following it.",
        discussion: """
            Pulls the peer's entries this store lacks, pushes this store's entries the peer lacks, or both
            (the default). Every batch is applied with its checkpoint in one transaction, so an interrupted
            sync resumes where it stopped. Exit status: 0 when in sync, 1 when the peer failed.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The peer node's URL, e.g. http://peer.example:8080.")
    var peer: String

    @Option(help: "A token of the peer's with the replication grant.")
    var token: String?

    @Option(help: "A PEM file of certificates to trust for an https peer.")
    var trustRoots: String?

    @Flag(help: "Run one round in each direction and exit (the default), or keep following the peer.")
    var mode: Mode = .once

    @Flag(help: "Which way entries travel.")
    var direction: Direction = .both

    enum Mode: String, EnumerableFlag {
        case once, follow
    }

    enum Direction: String, EnumerableFlag {
        case pull, push, both
    }

    func validate() throws {
        guard let url = URL(string: peer), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()),
            url.host != nil
        else {
            throw ValidationError("--peer must be an http:// or https:// URL, like http://peer.example:8080")
        }
    }

    func run() async throws {
        let store = try await storeOptions.openStore()
        let output = CLIOutput.current
        let transport: HTTPPeerTransport
        do {
            transport = try HTTPPeerTransport(url: URL(string: peer)!, token: token, trustRoots: trustRoots)
        } catch {
            throw ValidationError(
                "--trust-roots \(trustRoots ?? ""): \(ConnectionErrorWords.describe(error, loading: trustRoots ?? ""))"
            )
        }
        let log: EventLog
        do {
            log = try store.eventLog()
        } catch {
            try? await transport.shutdown()
            throw CommandFailure(description: "cannot open the store: \(ErrorWords.describe(error))")
        }
        var logger = Logger(label: "anchorage.sync")
        // Once, a failure is the command's error; following, each is logged.
        logger.logLevel = mode == .once ? .critical : .info
        let replicator = PeerReplicator(log: log, peer: transport, logger: logger)
        let syncDirection = SyncDirection(rawValue: direction.rawValue) ?? .both
        switch mode {
        case .once:
            do {
                let summary = try await replicator.sync(syncDirection)
                if let pulled = summary.pulled {
                    output.line(
                        "pulled \(pulled.applied) entries in \(pulled.batches) batches (\(pulled.skipped) already held)"
                    )
                }
                if let pushed = summary.pushed {
                    output.line("pushed \(pushed.applied) entries in \(pushed.batches) batches")
                }
            } catch {
                await store.close()
                try? await transport.shutdown()
                throw CommandFailure(description: "sync with \(peer) failed: \(ErrorWords.describe(error))")
            }
        case .follow:
            output.status("anchorage: following \(peer) (\(syncDirection.rawValue)); Ctrl-C stops\n")
            await replicator.follow(syncDirection)
        }
        await store.close()
        try? await transport.shutdown()
    }
}
