public import AnchorageCore
public import Etcd
import Synchronization

/// A node's view of the live nodes, kept current by a watch on `nodes/`
/// (read whole first, and again after a compaction), and when each node
/// was last seen going: what routing looks addresses up in, and what the
/// controller plans from.
///
/// ```swift
/// let directory = NodeDirectory(etcd: etcd)
/// let following = Task { try await directory.run() }
/// if let node = directory.node("n2") { forward(to: node.record.address) }
/// ```
public final class NodeDirectory: Sendable {
    let etcd: EtcdClient
    let keys: FleetKeys
    /// Notified after every change of the view.
    public let changes: ChangeSignal
    /// The clock that says when a node went.
    public let clock: StoreClock
    private let state = Mutex(State())

    struct State {
        var nodes: [String: FleetNode] = [:]
        /// When each node that went was last seen going.
        var gone: [String: OffsetInstant] = [:]
        var revision: Int64 = 0
    }

    public init(
        etcd: EtcdClient,
        keys: FleetKeys = FleetKeys(),
        changes: ChangeSignal = ChangeSignal(),
        clock: StoreClock = .continuous
    ) {
        self.clock = clock
        self.etcd = etcd
        self.keys = keys
        self.changes = changes
    }

    /// A live node, by id.
    public func node(_ id: String) -> FleetNode? { state.withLock { $0.nodes[id] } }

    /// Every live node.
    public var nodes: [String: FleetNode] { state.withLock { $0.nodes } }

    /// How long `id` has been gone, when this directory saw it go.
    public func goneFor(_ id: String, now: OffsetInstant? = nil) -> Duration? {
        let now = now ?? clock.instant
        return state.withLock { $0.gone[id].map { $0.duration(to: now) } }
    }

    /// The etcd revision the view reflects; 0 before the first read.
    public var revision: Int64 { state.withLock { $0.revision } }

    /// Follows the nodes until the task is cancelled.
    public func run() async throws {
        for try await update in etcd.follow(.prefix(keys.nodes)) {
            let now = clock.instant
            state.withLock { state in
                switch update {
                case .snapshot(let kvs, let revision):
                    let nodes = Dictionary(
                        kvs.compactMap(node).map { ($0.id, $0) },
                        uniquingKeysWith: { _, last in last }
                    )
                    for id in state.nodes.keys where nodes[id] == nil { state.gone[id] = now }
                    for id in nodes.keys { state.gone[id] = nil }
                    state.nodes = nodes
                    state.revision = revision
                case .events(let events):
                    for event in events {
                        guard let id = keys.id(in: event.kv.keyText, under: keys.nodes) else { continue }
                        switch event.kind {
                        case .delete:
                            if state.nodes.removeValue(forKey: id) != nil { state.gone[id] = now }
                        case .put:
                            if let node = node(event.kv) {
                                state.nodes[id] = node
                                state.gone[id] = nil
                            }
                        }
                        state.revision = max(state.revision, event.kv.modRevision)
                    }
                }
            }
            changes.notify()
        }
    }

    private func node(_ kv: EtcdKeyValue) -> FleetNode? {
        guard let id = keys.id(in: kv.keyText, under: keys.nodes),
            let record = try? NodeRecord(bytes: kv.value, key: kv.keyText)
        else { return nil }
        return FleetNode(id: id, record: record, lease: kv.lease)
    }
}
