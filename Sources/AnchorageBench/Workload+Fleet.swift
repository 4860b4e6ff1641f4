// MARK: A fleet on one machine (suite fleet)

/// The faults the fleet suite's rounds inflict on a store's primary.
enum FleetFault: String, CaseIterable, Sendable {
    case kill = "kill -9"
    case pause = "SIGSTOP"

    /// How soon writes must be acknowledged again (issue 53).
    var goal: Double { self == .kill ? 3 : 4 }
}

extension Workload {
    static func fleetLost(rounds: Int) -> Workload {
        Workload(
            "fleet: kill -9 and SIGSTOP of a primary, etcd's leader killed, etcd's majority lost, under 64 writing clients, \(rounds) rounds each (3 etcd + 3 nodes, lease 10 s): acknowledged writes lost",
            "writes",
            goal: .valueAtMost(0)
        )
    }
    static let fleetAcknowledged = Workload("fleet: writes acknowledged over those rounds", "writes")
    static let fleetSteadyRate = Workload(
        "fleet: 1-sample saves acknowledged (a replica holds each), 64 clients through every node, all up",
        "saves/s"
    )
    static func fleetResumeMedian(_ fault: FleetFault) -> Workload {
        Workload("fleet: writes acknowledged again after a primary's \(fault.rawValue), median of the rounds", "s")
    }
    static func fleetResumeP99(_ fault: FleetFault) -> Workload {
        Workload(
            "fleet: writes acknowledged again after a primary's \(fault.rawValue), 99th percentile of the rounds",
            "s",
            goal: .valueAtMost(fault.goal)
        )
    }
    static func fleetEtcdPrimaryChanges(rounds: Int) -> Workload {
        Workload(
            "fleet: store primaries changed over \(rounds) kills of etcd's leader and \(rounds) losses of its majority (5–60 s)",
            "changes",
            goal: .valueAtMost(0)
        )
    }
    static let fleetEtcdLeaderStall = Workload(
        "fleet: etcd's leader killed: from the kill to the next write acknowledged, 99th percentile of the rounds",
        "s"
    )
    static let fleetMajorityResume = Workload(
        "fleet: etcd's majority back (after 5–60 s without): to the next write acknowledged, the longest of the rounds",
        "s",
        goal: .valueAtMost(2)
    )
    static let fleetLongestAnswer = Workload(
        "fleet: the longest a writing client waited for an answer from a node not struck, over every round (forwarding deadline 12 s + 2 s)",
        "s",
        goal: .valueAtMost(14)
    )
    static let fleetCopiesFailingAudit = Workload(
        "fleet: copies failing audit verify, or whose digest differs, once healed",
        "copies",
        goal: .valueAtMost(0)
    )
    static func fleetStoreUpdatesTail(stores: Int, rate: Int) -> Workload {
        Workload(
            "store updates, fleet: a consumer of the fleet's feed on one of 3 nodes, \(stores) stores, \(rate) saves/s through every node: p99 from a save's answer to the consumer's page naming its store",
            "ms"
        )
    }
    static func fleetStoreUpdatesMedian(stores: Int, rate: Int) -> Workload {
        Workload(
            "store updates, fleet: … median from a save's answer to the consumer hearing of it",
            "ms"
        )
    }
    static func fleetReplaced(stores: Int) -> Workload {
        Workload(
            "fleet: a failed node's copies of \(stores) stores re-placed and re-replicated (4 nodes, lease 5 s, replace after 2 s): from the kill until no placement names it",
            "s"
        )
    }
    static func fleetReplacing(stores: Int) -> Workload {
        Workload(
            "fleet: … of which re-placing the \(stores) stores' copies: from when the node counts as lost (its lease ended, then 2 s) until no placement names it",
            "s",
            goal: .valueAtMost(5)
        )
    }
    static func fleetPrimarySpread(stores: Int, nodes: Int) -> Workload {
        Workload(
            "fleet: \(stores) stores placed 16 at a time on \(nodes) nodes (zones a, a, b, c): most minus fewest primaries a node leads, once settled (60 s at most)",
            "stores",
            goal: .valueAtMost(2)
        )
    }
    static func fleetPrimarySpreadAfterLoss(stores: Int) -> Workload {
        Workload(
            "fleet: … once the killed node's stores were promoted and re-placed (3 nodes left)",
            "stores",
            goal: .valueAtMost(2)
        )
    }
}
