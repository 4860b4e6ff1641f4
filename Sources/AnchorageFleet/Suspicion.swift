/// What a node concludes about the nodes it follows (the primaries of the
/// stores it holds replicas of) from probing them: a value-type state
/// machine, fed the probes' outcomes with the instants they were sent, and
/// tested on a hand clock.
///
/// A node's lease says it is gone a TTL after its last keep-alive (10 s by
/// default), too late for a primary killed or frozen under writes. Its
/// replicas see sooner: a killed process refuses connections at once, a
/// frozen one answers nothing. A target that failed every probe for
/// ``Settings/after`` (and at least twice) is *reported*; one answering
/// again, or no longer followed, is *withdrawn*. The controller promotes a
/// store's replica when every live replica of the store reports its primary
/// (``ControllerPlan``): a primary none of its replicas reaches can
/// acknowledge nothing anyway, since a write is acknowledged by a replica's
/// pull, and epochs fence it if it still runs.
///
/// ```swift
/// var suspicion = Suspicion<OffsetInstant>()
/// suspicion.follow(["n1"])
/// let action = suspicion.record("n1", answered: false, sent: .now)   // .report("n1") once it has failed long enough
/// ```
public struct Suspicion<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration, Instant: Sendable {
    /// When a target counts as unreachable.
    public struct Settings: Sendable, Hashable {
        /// How long every probe must have failed (from the first failed
        /// probe's sending to the last's).
        public var after: Duration
        /// How many probes in a row must have failed.
        public var failures: Int

        public init(after: Duration = .seconds(1), failures: Int = 2) {
            self.after = after
            self.failures = max(1, failures)
        }
    }

    /// What the node should tell the fleet.
    public enum Action: Sendable, Hashable {
        /// Record that this node cannot reach the node.
        case report(String)
        /// Remove that record.
        case withdraw(String)
    }

    struct Target: Sendable, Hashable {
        var failingSince: Instant?
        var failures = 0
        var reported = false
    }

    public let settings: Settings
    private var targets: [String: Target] = [:]

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The nodes probed.
    public var followed: Set<String> { Set(targets.keys) }

    /// The nodes reported (and not withdrawn).
    public var reported: Set<String> { Set(targets.filter(\.value.reported).keys) }

    /// Follows exactly `nodes` from now on: new ones start with a clean
    /// record; the reports of ones left are withdrawn.
    public mutating func follow(_ nodes: Set<String>) -> [Action] {
        var actions: [Action] = []
        for (node, target) in targets where !nodes.contains(node) {
            if target.reported { actions.append(.withdraw(node)) }
            targets[node] = nil
        }
        for node in nodes where targets[node] == nil { targets[node] = Target() }
        return actions.sorted { "\($0)" < "\($1)" }
    }

    /// Records one probe of `node`, sent at `sent`: answered or not.
    public mutating func record(_ node: String, answered: Bool, sent: Instant) -> Action? {
        guard var target = targets[node] else { return nil }
        defer { targets[node] = target }
        if answered {
            let wasReported = target.reported
            target = Target()
            return wasReported ? .withdraw(node) : nil
        }
        target.failures += 1
        let since = target.failingSince ?? sent
        target.failingSince = since
        guard !target.reported, target.failures >= settings.failures, since.duration(to: sent) >= settings.after
        else { return nil }
        target.reported = true
        return .report(node)
    }

    /// Forgets that `nodes` (every node, when `nil`) were reported: the
    /// reports went with a lease that ended, or never reached etcd. The next
    /// failed probe reports again.
    public mutating func forgetReports(_ nodes: Set<String>? = nil) {
        for node in nodes ?? Set(targets.keys) { targets[node]?.reported = false }
    }
}
