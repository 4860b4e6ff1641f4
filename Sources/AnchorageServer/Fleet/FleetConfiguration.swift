public import AnchorageFleet
import Foundation

/// What makes a multi-store node a member of a fleet (`anchorage serve
/// --fleet`, docs/fleet.md): where etcd is, who this node is, and the
/// fleet's timings.
///
/// ```swift
/// var fleet = FleetConfiguration(
///     etcd: ["http://10.0.0.1:2379", "http://10.0.0.2:2379", "http://10.0.0.3:2379"],
///     nodeID: "n1",
///     address: "http://10.0.0.5:8080",
///     secret: fleetSecret
/// )
/// fleet.zone = "eu-1a"
/// ```
public struct FleetConfiguration: Sendable {
    /// The etcd members' client URLs.
    public var etcd: [String]
    /// This node's id: unique in the fleet, stable across restarts.
    public var nodeID: String
    /// The URL other nodes and forwarded clients reach this node at.
    public var address: String
    /// The fleet's shared secret: nodes present it to each other (to
    /// replicate, to forward a store's creation to the controller), and the
    /// operator presents it to administer the fleet.
    public var secret: String
    /// The node's zone; new stores' copies go to distinct zones while
    /// there are enough.
    public var zone: String?
    /// How many store copies the node is meant to hold, relative to the
    /// other nodes (placement weighs copies held by it).
    public var capacity = 1
    /// Where the fleet's records live in etcd.
    public var keys = FleetKeys()
    /// The node's lease TTL, in seconds (at least 5 outside tests: several
    /// etcd election times).
    public var leaseTTL: Int64 = 10
    /// How long before its lease's end the node stops counting on it.
    public var leaseMargin: Duration = .seconds(1)
    /// How long a newly promoted primary waits past its predecessor's
    /// expiry before it begins its epoch (LiteFS's lock-delay).
    public var lockDelay: Duration = .seconds(1)
    /// How many copies a new store gets.
    public var copies = 3
    /// Whether new stores seal (``NodeConfiguration/keyProvider`` set on
    /// every node, with the same wrapping key): their placements name a
    /// data key id, and every copy seals under that key.
    public var seals = false
    /// How long a replica's node may be gone before the controller adds a
    /// copy elsewhere (a restart is not a loss).
    public var replaceAfter: Duration = .seconds(60)
    /// Promote a store with fewer than `copies - 1` copies live (may lose
    /// acknowledged writes): an operator's decision, off by default.
    public var allowUnclean = false
    /// How long a node asked to stop waits for the stores it leads to be
    /// handed over before it stops anyway (they fail over then).
    public var handoffTimeout: Duration = .seconds(20)
    /// How often a node probes the primaries of the stores it holds
    /// replicas of (``Suspicion``).
    public var probeInterval: Duration = .milliseconds(250)
    /// How long a probe may take to be answered.
    public var probeTimeout: Duration = .seconds(1)
    /// How long every probe of a node must have failed before this node
    /// reports it unreachable; when every live replica of a store reports
    /// its primary, a replica is promoted without waiting for the
    /// primary's lease to end.
    public var suspectAfter: Duration = .seconds(1)
    /// How many stores the controller hands over per look for balance (from
    /// nodes leading more to nodes leading fewer, ``ControllerPlan``); 0
    /// leaves primaries where failovers put them.
    public var balanceLimit = 8
    /// How often the controller looks at the fleet.
    public var controllerInterval: Duration = .milliseconds(250)

    public init(etcd: [String], nodeID: String, address: String, secret: String) {
        self.etcd = etcd
        self.nodeID = nodeID
        self.address = address
        self.secret = secret
    }
}
