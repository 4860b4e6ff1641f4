import Anchorage
import AnchorageFleet
import AsyncHTTPClient
import Etcd
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Probes the nodes this node follows (the primaries of the stores it holds
/// replicas of) and tells the fleet which it cannot reach
/// (`unreachable/<node>/<this node>`, on this node's lease): the
/// controller promotes a store whose live replicas all report its primary,
/// seconds before the primary's lease would end (docs/fleet.md, "Failover").
/// The decisions are ``Suspicion``'s; this runs its probes on the node's
/// clock and carries out what it decides.
///
/// ```swift
/// let probe = FleetProbe(…)
/// let task = Task { await probe.run() }
/// ```
final class FleetProbe: Sendable {
    struct Parts: Sendable {
        let fleet: FleetConfiguration
        let directory: NodeDirectory
        let membership: NodeMembership
        let etcd: EtcdClient
        let client: HTTPClient
        let clock: StoreClock
        /// Notified when what this node reports changes.
        let changes: ChangeSignal
        let logger: Logger
        /// The nodes to probe now.
        let followed: @Sendable () -> Set<String>
    }

    let parts: Parts
    private let suspicion: Mutex<Suspicion<OffsetInstant>>
    /// Reports to remove that could not be removed yet.
    private let withdrawals = Mutex<Set<String>>([])

    init(_ parts: Parts) {
        self.parts = parts
        suspicion = Mutex(Suspicion(settings: .init(after: parts.fleet.suspectAfter, failures: 2)))
    }

    /// The nodes this node reports unreachable now.
    var reported: Set<String> { suspicion.withLock { $0.reported } }

    /// Whether this node's probes of `node` have failed long enough to
    /// report it (whether or not the report reached etcd).
    func reports(_ node: String) -> Bool { suspicion.withLock { $0.reported.contains(node) } }

    /// Probes every ``FleetConfiguration/probeInterval`` until cancelled.
    func run() async {
        var lease: Int64?
        while !Task.isCancelled {
            let sent = parts.clock.timeline.now
            await round(sent: sent, lease: &lease)
            let next = sent.advanced(by: parts.fleet.probeInterval)
            let left = parts.clock.timeline.now.duration(to: next)
            if left > .zero { try? await parts.clock.sleep(left) }
        }
    }

    /// One round: every followed node probed at once, then what the
    /// answers decide done.
    func round(sent: OffsetInstant, lease: inout Int64?) async {
        if parts.membership.lease != lease {
            // The reports went with the lease they were attached to.
            lease = parts.membership.lease
            suspicion.withLock { $0.forgetReports() }
        }
        let targets = parts.followed().filter { $0 != parts.fleet.nodeID && parts.directory.node($0) != nil }
        var actions = suspicion.withLock { $0.follow(targets) }
        let answers = await withTaskGroup(of: (String, Bool).self) { group in
            for node in targets {
                guard let address = parts.directory.node(node)?.record.address else { continue }
                group.addTask { [self] in (node, await isAnswering(address)) }
            }
            var answers: [(String, Bool)] = []
            for await answer in group { answers.append(answer) }
            return answers
        }
        for (node, answered) in answers.sorted(by: { $0.0 < $1.0 }) {
            if let action = suspicion.withLock({ $0.record(node, answered: answered, sent: sent) }) {
                actions.append(action)
            }
        }
        if !actions.isEmpty { parts.changes.notify() }
        await carry(actions, lease: lease)
    }

    /// Whether `address` answers `/healthz` within the probe's timeout (on
    /// the node's clock).
    private func isAnswering(_ address: String) async -> Bool {
        let base = address.hasSuffix("/") ? String(address.dropLast()) : address
        let request = HTTPClientRequest(url: base + "/healthz")
        return await withTaskGroup(of: Bool?.self) { group in
            group.addTask { [parts] in
                guard let response = try? await parts.client.execute(request, timeout: .seconds(30)) else {
                    return false
                }
                _ = try? await response.body.collect(upTo: 4_096)
                return response.status == .ok
            }
            group.addTask { [parts] in
                try? await parts.clock.sleep(parts.fleet.probeTimeout)
                return Task.isCancelled ? nil : false
            }
            var answered = false
            for await outcome in group {
                guard let outcome else { continue }
                answered = outcome
                break
            }
            group.cancelAll()
            return answered
        }
    }

    private func carry(_ actions: [Suspicion<OffsetInstant>.Action], lease: Int64?) async {
        let me = parts.fleet.nodeID
        let keys = parts.fleet.keys
        var withdraw = withdrawals.withLock { $0 }
        for action in actions {
            switch action {
            case .report(let node):
                withdraw.remove(node)
                guard let lease else {
                    // No lease to attach it to: reported once the node holds one.
                    suspicion.withLock { $0.forgetReports([node]) }
                    continue
                }
                do {
                    _ = try await parts.etcd.put(keys.unreachable(node, by: me), value: Array("{}".utf8), lease: lease)
                    parts.logger.notice(
                        "a node this node follows does not answer; reported unreachable",
                        metadata: ["fleet.node": "\(node)"]
                    )
                } catch {
                    // Not reported: the next failed probe tries again.
                    suspicion.withLock { $0.forgetReports([node]) }
                    parts.logger.info("cannot report a node unreachable", metadata: ["error": "\(error)"])
                }
            case .withdraw(let node):
                withdraw.insert(node)
            }
        }
        for node in withdraw.sorted() {
            do {
                _ = try await parts.etcd.delete(.key(keys.unreachable(node, by: me)))
                withdraw.remove(node)
                parts.logger.info("a node reported unreachable answers again", metadata: ["fleet.node": "\(node)"])
            } catch {
                // Tried again next round.
            }
        }
        withdrawals.withLock { $0 = withdraw }
    }
}
