import AnchorageService
import AnchorageSync
import ArgumentParser
import Foundation

/// `anchorage peers`: the nodes each store of a multi-store node
/// replicates with.
struct PeersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peers",
        abstract: "Add, list and remove the peers each store of a multi-store node replicates with.",
        discussion: """
            A running node (serve --stores DIR) reads them from the registry: a store that changes pushes to its \
            peers within about a second, and every --peer-interval seconds each store with peers pulls and pushes.
            """,
        subcommands: [PeersAddCommand.self, PeersListCommand.self, PeersRemoveCommand.self]
    )
}

/// `anchorage peers add --store ID URL`.
struct PeersAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a peer a store replicates with: a node's URL, or one store's of a multi-store node.",
        discussion: """
            The URL is http(s)://host:port, or …/v1/stores/<id> for a store of a multi-store node. The token is one of \
            the peer's with the replication grant; the registry keeps it to send it, and never shows it again.
            """
    )

    @OptionGroup var node: NodeRootOption

    @Option(help: "The store that replicates.")
    var store: String

    @Argument(help: "The peer's URL.")
    var url: String

    @Option(help: "A token of the peer's with the replication grant.")
    var token: String?

    @Option(help: "pull, push or both.")
    var direction = "both"

    func validate() throws {
        guard SyncDirection(rawValue: direction) != nil else {
            throw ValidationError("--direction is pull, push or both")
        }
    }

    func run() throws {
        let direction = SyncDirection(rawValue: direction) ?? .both
        let registry = try node.registry()
        guard let address = URL(string: url) else { throw ValidationError("\(url.prefix(100)) is not a URL") }
        let peer = try registryCall { () throws(ServiceError) in
            try registry.addPeer(to: try StoreName(store), url: address, token: token, direction: direction)
        }
        CLIOutput.current.line("\(peer.id)\t\(peer.store)\t\(peer.direction.rawValue)\t\(peer.url.absoluteString)")
    }
}

/// `anchorage peers list [--store ID]`.
struct PeersListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List peers (never their tokens): id, store, direction, URL."
    )

    @OptionGroup var node: NodeRootOption

    @Option(help: "Only this store's peers.")
    var store: String?

    func run() throws {
        let registry = try node.registry()
        var found: [StorePeer] = []
        if let store {
            found = try registryCall { () throws(ServiceError) in try registry.peers(of: try StoreName(store)) }
        } else {
            var after: StoreName?
            while true {
                let page = try registryCall { () throws(ServiceError) in
                    try registry.storesWithPeers(after: after, limit: 1_000)
                }
                found += page.flatMap(\.peers)
                guard page.count == 1_000 else { break }
                after = page.last?.store
            }
        }
        let output = CLIOutput.current
        for peer in found {
            output.line("\(peer.id)\t\(peer.store)\t\(peer.direction.rawValue)\t\(peer.url.absoluteString)")
        }
    }
}

/// `anchorage peers remove --store ID PEER`.
struct PeersRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a peer: the node starts no new round with it."
    )

    @OptionGroup var node: NodeRootOption

    @Option(help: "The store that replicates with it.")
    var store: String

    @Argument(help: "The peer's id (peer_…), as `peers add` and `peers list` print it.")
    var id: String

    func run() throws {
        let registry = try node.registry()
        try registryCall { () throws(ServiceError) in try registry.removePeer(id, of: try StoreName(store)) }
        CLIOutput.current.line("removed \(id)")
    }
}
