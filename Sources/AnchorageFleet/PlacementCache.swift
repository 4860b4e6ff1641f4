public import Etcd
import Synchronization

/// A node's copy of every store's placement, kept current by a watch on
/// `stores/` (read whole first, and again whenever the watch fell behind a
/// compaction): what the node looks up to route each request without
/// asking etcd.
///
/// ```swift
/// let cache = PlacementCache(etcd: etcd)
/// let following = Task { try await cache.run() }
/// if let record = cache.placement(of: "alice") { … record.placement.primary … }
/// ```
public final class PlacementCache: Sendable {
    let etcd: EtcdClient
    let keys: FleetKeys
    /// Notified after every change of the copy.
    public let changes: ChangeSignal
    private let state = Mutex(State())

    struct State {
        var records: [String: PlacementRecord] = [:]
        /// The revision the copy reflects (0 until the first read).
        var revision: Int64 = 0
        /// Values under `stores/` that were not placements, by key.
        var malformed = 0
    }

    public init(etcd: EtcdClient, keys: FleetKeys = FleetKeys(), changes: ChangeSignal = ChangeSignal()) {
        self.etcd = etcd
        self.keys = keys
        self.changes = changes
    }

    /// A store's placement as last seen.
    public func placement(of store: String) -> PlacementRecord? {
        state.withLock { $0.records[store] }
    }

    /// Every placement as last seen.
    public var placements: [String: PlacementRecord] { state.withLock { $0.records } }

    /// The etcd revision the copy reflects; 0 before the first read.
    public var revision: Int64 { state.withLock { $0.revision } }

    /// How many values under `stores/` were not placements (they are left
    /// out; a controller writes only placements there).
    public var malformedRecords: Int { state.withLock { $0.malformed } }

    /// Follows the placements until the task is cancelled.
    ///
    /// - Throws: what etcd refuses outright (a failed sign-in); a member
    ///   that goes away is not an error: the watch resumes on another.
    public func run() async throws {
        for try await update in etcd.follow(.prefix(keys.stores)) {
            switch update {
            case .snapshot(let kvs, let revision):
                var records: [String: PlacementRecord] = [:]
                var malformed = 0
                for kv in kvs {
                    if let record = record(kv) { records[record.store] = record } else { malformed += 1 }
                }
                state.withLock { $0 = State(records: records, revision: revision, malformed: malformed) }
                changes.notify()
            case .events(let events):
                state.withLock { state in
                    for event in events {
                        guard let store = keys.id(in: event.kv.keyText, under: keys.stores) else { continue }
                        switch event.kind {
                        case .delete: state.records[store] = nil
                        case .put:
                            if let record = record(event.kv) {
                                state.records[store] = record
                            } else {
                                state.records[store] = nil
                                state.malformed += 1
                            }
                        }
                        state.revision = max(state.revision, event.kv.modRevision)
                    }
                }
                changes.notify()
            }
        }
    }

    private func record(_ kv: EtcdKeyValue) -> PlacementRecord? {
        guard let store = keys.id(in: kv.keyText, under: keys.stores),
            let placement = try? Placement(bytes: kv.value, key: kv.keyText)
        else { return nil }
        return PlacementRecord(store: store, placement: placement, modRevision: kv.modRevision)
    }
}

/// Where a request for a store goes, from this node's point of view: a
/// pure decision, tested without a fleet.
///
/// ```swift
/// switch Route.decide(for: cache.placement(of: id), on: "n2", replicaReadAllowed: false) {
/// case .serve(let role): …
/// case .forward(let primary): …   // or 307 to the primary's address
/// case .unplaced: …               // 404: the fleet has no such store
/// }
/// ```
public enum Route: Sendable, Hashable {
    /// This node serves it, holding the copy with this role.
    case serve(Placement.Role, epoch: Int64)
    /// Another node is the store's primary: send it there.
    case forward(to: String, epoch: Int64)
    /// The fleet has no placement for the store.
    case unplaced

    /// Writes go to the primary; a read may be served by a replica when
    /// the client allows it.
    public static func decide(for record: PlacementRecord?, on node: String, replicaReadAllowed: Bool) -> Route {
        guard let record else { return .unplaced }
        let placement = record.placement
        switch placement.role(of: node) {
        case .primary: return .serve(.primary, epoch: placement.epoch)
        case .replica where replicaReadAllowed: return .serve(.replica, epoch: placement.epoch)
        default: return .forward(to: placement.primary, epoch: placement.epoch)
        }
    }
}
