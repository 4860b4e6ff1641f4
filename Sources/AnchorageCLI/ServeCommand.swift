import Anchorage
import AnchorageServer
import ArgumentParser
import Foundation
import Logging

/// `anchorage serve`: runs a node, the store served over HTTP
/// (docs/http-api.md), until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store over HTTP: change feed, samples, statistics, metrics.",
        discussion: """
            Without --tokens every request acts as the store's owner, so the node listens on loopback only.
            A token file names who may read and share what (docs/http-api.md). SIGTERM or SIGINT stops it
            gracefully: requests in flight finish, streams end, and every acknowledged write is on disk.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup(title: "Fleet") var fleetOptions: FleetOptions

    @Flag(
        help:
            "With --stores: seal every store created from now on under its own data key (docs/log-format.md, \"Sealed entries\")."
    )
    var seal = false

    @OptionGroup(title: "Sealing (with --seal)") var keyProvider: KeyProviderOptions

    @Option(
        name: .customLong("stores"),
        help: ArgumentHelp(
            "Serve every store of a multi-store node's directory, at /v1/stores/<id>/… (see `anchorage stores`).",
            valueName: "dir"
        )
    )
    var storesRoot: String?

    @Option(parsing: .unconditional, help: "With --stores: the most stores open at once.")
    var maxOpenStores = 1_000

    @Option(parsing: .unconditional, help: "With --stores: the seconds a store nobody uses stays open.")
    var storeIdle: Double = 60

    @Option(parsing: .unconditional, help: "With --stores: the most stores the node holds (creating more is refused).")
    var maxStores = 1_000_000

    @Option(
        parsing: .unconditional,
        help: "With --stores: the least seconds between two passes over the stores with peers (`anchorage peers`)."
    )
    var peerInterval: Double = 30

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The TCP port (0 picks a free one).")
    var port = 8080

    @Option(help: "A JSON file of bearer tokens and their grants.")
    var tokens: String?

    @Flag(help: "Listen on a non-loopback address without tokens (anyone reaching it reads and writes everything).")
    var allowUnauthenticatedRemote = false

    @Option(parsing: .unconditional, help: "The largest request body, in bytes.")
    var maxBodyBytes = 8 << 20

    @Option(parsing: .unconditional, help: "The most seconds a request body may take to arrive (408 beyond it).")
    var bodyTimeout: Double = 30

    @Option(
        parsing: .unconditional,
        help: "The slowest a request body may arrive after --body-rate-grace, in bytes/s (0: no minimum)."
    )
    var minBodyRate = 1_024

    @Option(parsing: .unconditional, help: "The seconds a request body has before --min-body-rate applies.")
    var bodyRateGrace: Double = 10

    @Option(
        help: "The statistics buckets each app (or the owner) may have computed a second (0: no limit; 429 beyond)."
    )
    var statisticsRate = 20_000

    @Option(
        help:
            "The objects each app may save or delete a second, a request counting as at least 10 (0: no limit; 429 beyond; the owner is not limited)."
    )
    var writeRate = 1_000

    @Option(help: "A peer node to keep in continuous two-way sync with (repeatable).")
    var peer: [String] = []

    @Option(help: "A token of the peers' with the replication grant.")
    var peerToken: String?

    @Option(
        parsing: .unconditional,
        help:
            "Answer a save or delete only once a replica pulling from this node holds it, waiting at most this many seconds (503 replicationUnavailable beyond; none: once it is durable here)."
    )
    var replicaWait: Double?

    @Option(help: "A PEM file of certificates to trust for https peers (with --stores: the registry's peers).")
    var peerTrustRoots: String?

    @Option(help: "Serve HTTPS with this PEM certificate chain (with --tls-key).")
    var tlsCertificate: String?

    @Option(help: "The PEM private key of --tls-certificate.")
    var tlsKey: String?

    @Option(
        help: "A host webhooks may post to, as host or host:port, * for any (repeatable; none: webhooks are off)."
    )
    var webhookHost: [String] = []

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        if !seal, keyProvider.namesProvider {
            throw ValidationError("--key-file and --pkcs11-module go with --seal")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard maxBodyBytes >= 1_024 else { throw ValidationError("--max-body-bytes must be at least 1024") }
        guard bodyTimeout > 0, bodyTimeout <= 86_400 else {
            throw ValidationError("--body-timeout must be more than 0 and at most 86400 seconds")
        }
        guard minBodyRate >= 0 else { throw ValidationError("--min-body-rate must be 0 or more bytes/s") }
        guard statisticsRate >= 0 else { throw ValidationError("--statistics-rate must be 0 or more buckets/s") }
        guard writeRate >= 0 else { throw ValidationError("--write-rate must be 0 or more objects/s") }
        guard bodyRateGrace >= 0, bodyRateGrace <= 86_400 else {
            throw ValidationError("--body-rate-grace must be from 0 to 86400 seconds")
        }
        if let replicaWait, !(replicaWait > 0 && replicaWait <= 3_600) {
            throw ValidationError("--replica-wait must be more than 0 and at most 3600 seconds")
        }
        for address in peer {
            guard let url = URL(string: address), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else { throw ValidationError("--peer \(address) is not an http:// or https:// URL") }
        }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("give both --tls-certificate and --tls-key, or neither")
        }
        if storesRoot != nil {
            guard storeOptions.store == nil else { throw ValidationError("give --store or --stores, not both") }
            guard tokens == nil else {
                throw ValidationError("with --stores the tokens are the registry's: `anchorage tokens issue`")
            }
            guard peer.isEmpty, peerToken == nil else {
                throw ValidationError(
                    "a multi-store node's peers are each store's: add them with `anchorage peers add --stores DIR --store <id> <url>`"
                )
            }
        }
        guard maxOpenStores >= 1 else { throw ValidationError("--max-open-stores must be at least 1") }
        guard maxStores >= 1 else { throw ValidationError("--max-stores must be at least 1") }
        guard peerInterval >= 1, peerInterval <= 86_400 else {
            throw ValidationError("--peer-interval must be from 1 to 86400 seconds")
        }
        guard storeIdle > 0, storeIdle <= 86_400 else {
            throw ValidationError("--store-idle must be more than 0 and at most 86400 seconds")
        }
        try fleetOptions.validate(host: host, port: port, stores: storesRoot)
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level is trace, debug, info, notice, warning, error or critical")
        }
    }

    func run() async throws {
        var configuration = NodeConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.allowsUnauthenticatedRemoteAccess = allowUnauthenticatedRemote
        configuration.maximumBodyBytes = maxBodyBytes
        configuration.bodyTimeout = .seconds(bodyTimeout)
        configuration.webhookHosts = webhookHost
        configuration.minimumBodyRate = minBodyRate
        configuration.statisticsBucketsPerSecond = statisticsRate
        configuration.appWriteObjectsPerSecond = writeRate
        configuration.replicaAcknowledgement = replicaWait.map { .milliseconds(Int64(($0 * 1_000).rounded())) }
        configuration.bodyRateGracePeriod = .seconds(bodyRateGrace)
        configuration.peers = peer.compactMap(URL.init(string:)).map {
            PeerConfiguration(url: $0, token: peerToken, trustRoots: peerTrustRoots)
        }
        if let tlsCertificate, let tlsKey {
            configuration.tls = TLSFiles(certificateChain: tlsCertificate, privateKey: tlsKey)
        }
        if let tokens {
            do {
                configuration.accessPolicy = try AccessPolicy(contentsOf: URL(fileURLWithPath: tokens))
            } catch {
                throw ValidationError("--tokens: \(ErrorWords.describe(error))")
            }
        }
        var logger = Logger(label: "anchorage")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        if let storesRoot {
            configuration.maximumOpenStores = maxOpenStores
            configuration.maximumStores = maxStores
            configuration.storeIdleTimeout = .milliseconds(Int64(storeIdle * 1_000))
            configuration.peerSyncInterval = .milliseconds(Int64(peerInterval * 1_000))
            configuration.peerTrustRoots = peerTrustRoots
            if seal { configuration.keyProvider = try await keyProvider.provider() }
            if fleetOptions.fleet {
                // A sealed fleet's placements name each store's key id; every
                // copy unwraps the key with the same wrapping key (the same
                // key file or HSM token on every node).
                var fleet = try fleetOptions.configuration(host: host, port: port)
                fleet.seals = seal
                try await serveFleet(root: storesRoot, configuration: configuration, fleet: fleet, logger: logger)
                return
            }
            try await serveStores(root: storesRoot, configuration: configuration, logger: logger)
            return
        }
        if seal {
            throw ValidationError(
                "--seal goes with --stores: a multi-store node keeps its stores' data keys in its registry"
            )
        }
        let node: AnchorageNode
        do {
            node = try await AnchorageNode(
                directory: storeOptions.directory,
                configuration: configuration,
                logger: logger
            )
        } catch let error as NodeConfigurationError {
            throw ValidationError(error.description)
        } catch {
            throw CommandFailure(description: "cannot open the store: \(ErrorWords.describe(error))")
        }
        let output = CLIOutput.current
        let host = host
        let scheme = tlsCertificate == nil ? "http" : "https"
        do {
            try await node.run { port in
                output.status("anchorage: serving \(storeOptions.directory.path) on \(scheme)://\(host):\(port)\n")
                let page = "\(scheme)://\(Self.browserHost(host)):\(port)/"
                if let code = node.issueSignInCode() {
                    // The code is in the fragment: browsers send it to no server and no referrer.
                    output.status(
                        "anchorage: the web page, signed in as the owner: \(page)#sign-in=\(code) "
                            + "(the link works once, within 10 minutes)\n"
                    )
                } else {
                    output.status("anchorage: the web page: \(page)\n")
                }
            }
        } catch {
            throw CommandFailure(description: "the node stopped: \(ErrorWords.describe(error))")
        }
        output.status("anchorage: stopped\n")
    }

    /// The host a browser on this machine opens for `host`: loopback for
    /// the wildcard addresses, IPv6 addresses in brackets.
    static func browserHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0": return "127.0.0.1"
        case "::": return "[::1]"
        default: return host.contains(":") ? "[\(host)]" : host
        }
    }

    /// `--stores DIR`: a multi-store node.
    private func serveStores(root: String, configuration: NodeConfiguration, logger: Logger) async throws {
        let node: MultiStoreNode
        do {
            node = try MultiStoreNode(
                root: URL(fileURLWithPath: root, isDirectory: true),
                configuration: configuration,
                logger: logger
            )
        } catch let error as NodeConfigurationError {
            throw ValidationError(error.description)
        }
        let output = CLIOutput.current
        let host = host
        let scheme = tlsCertificate == nil ? "http" : "https"
        do {
            try await node.run { port in
                output.status("anchorage: serving the stores of \(root) on \(scheme)://\(host):\(port)\n")
                output.status(
                    "anchorage: the web page (sign in with a store's token): "
                        + "\(scheme)://\(Self.browserHost(host)):\(port)/\n"
                )
            }
        } catch {
            throw CommandFailure(description: "the node stopped: \(ErrorWords.describe(error))")
        }
        output.status("anchorage: stopped\n")
    }
}
