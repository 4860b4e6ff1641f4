import AnchorageServer
import ArgumentParser
import Foundation

/// `anchorage serve --fleet …`: what makes a node a member of a fleet.
struct FleetOptions: ParsableArguments {
    @Flag(help: "Join a fleet: stores placed by etcd on several nodes (docs/fleet.md). Needs --stores.")
    var fleet = false

    @Option(help: "With --fleet: etcd's client URLs, comma-separated.")
    var etcd: String?

    @Option(help: "With --fleet: this node's id, unique in the fleet and kept across restarts.")
    var nodeID: String?

    @Option(help: "With --fleet: this node's zone (a store's copies go to distinct zones).")
    var zone: String?

    @Option(help: "With --fleet: the URL other nodes reach this node at (default: http://<host>:<port>).")
    var advertise: String?

    @Option(help: "With --fleet: a file holding the fleet's shared secret (nodes and the operator present it).")
    var fleetSecretFile: String?

    @Option(
        parsing: .unconditional,
        help: "With --fleet: the node's lease TTL in seconds (at least 2; 5 or more outside tests)."
    )
    var leaseTTL: Int = 10

    @Option(
        parsing: .unconditional,
        help: "With --fleet: the seconds a replica's node may be gone before its copy is replaced."
    )
    var replaceAfter: Double = 60

    @Option(
        parsing: .unconditional,
        help: "With --fleet: the stores the controller hands over per look to even out primaries (0: never)."
    )
    var balanceLimit: Int = 8

    @Flag(
        help:
            "With --fleet: promote a store with fewer than all but one of its copies live (may lose acknowledged writes)."
    )
    var allowUnclean = false

    func validate(host: String, port: Int, stores: String?) throws {
        guard fleet else {
            guard etcd == nil, nodeID == nil, zone == nil, advertise == nil, fleetSecretFile == nil else {
                throw ValidationError("--etcd, --node-id, --zone, --advertise and --fleet-secret-file go with --fleet")
            }
            return
        }
        guard stores != nil else {
            throw ValidationError("--fleet needs --stores DIR: where this node keeps its copies")
        }
        guard let etcd, !etcd.isEmpty else { throw ValidationError("--fleet needs --etcd URL[,URL…]") }
        guard nodeID?.isEmpty == false else { throw ValidationError("--fleet needs --node-id") }
        guard fleetSecretFile != nil else { throw ValidationError("--fleet needs --fleet-secret-file FILE") }
        guard advertise != nil || port != 0 else {
            throw ValidationError(
                "with --fleet give --port (not 0) or --advertise URL: other nodes must reach this one"
            )
        }
        guard leaseTTL >= 2, leaseTTL <= 300 else { throw ValidationError("--lease-ttl must be from 2 to 300 seconds") }
        guard replaceAfter >= 1 else { throw ValidationError("--replace-after must be at least 1 second") }
        guard (0...1_000).contains(balanceLimit) else {
            throw ValidationError("--balance-limit must be from 0 to 1000")
        }
    }

    /// The fleet's configuration, reading the secret's file.
    func configuration(host: String, port: Int) throws -> FleetConfiguration {
        let secretFile = fleetSecretFile ?? ""
        let secret: String
        do {
            secret = try String(contentsOfFile: secretFile, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines
            )
        } catch {
            throw ValidationError("--fleet-secret-file: cannot read \(secretFile)")
        }
        guard secret.utf8.count >= 16 else {
            throw ValidationError("--fleet-secret-file: the secret must be at least 16 characters")
        }
        var configuration = FleetConfiguration(
            etcd: (etcd ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
            nodeID: nodeID ?? "",
            address: advertise ?? "http://\(host):\(port)",
            secret: secret
        )
        configuration.zone = zone
        configuration.leaseTTL = Int64(leaseTTL)
        configuration.replaceAfter = .milliseconds(Int64(replaceAfter * 1_000))
        configuration.allowUnclean = allowUnclean
        configuration.balanceLimit = balanceLimit
        return configuration
    }
}
