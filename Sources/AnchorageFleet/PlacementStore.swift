public import Etcd
import Foundation

/// The stores' placements in etcd: read by anyone, written only by the
/// controller, each change a compare-and-swap on the record's mod revision
/// fenced by the controller's claim, with the per-node index
/// (`by-node/<node>/<store>` → role) changed in the same transaction.
///
/// ```swift
/// let placements = PlacementStore(etcd: etcd)
/// let (record, created) = try await placements.create("alice", by: claim)
/// var moved = record.placement
/// moved.replicas[1] = "n4"
/// let outcome = try await placements.change(record, to: moved, by: claim)
/// ```
public struct PlacementStore: Sendable {
    let etcd: EtcdClient
    let keys: FleetKeys
    /// How many copies a new store gets.
    public let copies: Int
    /// Names a data key id for every new store: its copies seal.
    public let seals: Bool

    public init(etcd: EtcdClient, keys: FleetKeys = FleetKeys(), copies: Int = 3, seals: Bool = false) {
        self.etcd = etcd
        self.keys = keys
        self.copies = max(1, copies)
        self.seals = seals
    }

    /// A store's placement, if it has one.
    public func placement(of store: String) async throws -> PlacementRecord? {
        try FleetKeys.check(store, "the store id")
        guard let kv = try await etcd.range(.key(keys.store(store))).kvs.first else { return nil }
        return try record(kv)
    }

    /// Every placement, read at one revision, and the keys under `stores/`
    /// that hold no placement (left out, for the caller to report: one bad
    /// value must not stop the controller).
    public func all() async throws -> (records: [PlacementRecord], revision: Int64, malformed: [String]) {
        let (kvs, revision) = try await etcd.rangeAll(.prefix(keys.stores))
        var records: [PlacementRecord] = []
        var malformed: [String] = []
        for kv in kvs {
            if let record = try? record(kv) { records.append(record) } else { malformed.append(kv.keyText) }
        }
        return (records, revision, malformed)
    }

    /// The stores a node holds a copy of, with its role, from its index.
    public func stores(on node: String) async throws -> [String: Placement.Role] {
        let prefix = keys.byNode(node)
        var roles: [String: Placement.Role] = [:]
        for kv in try await etcd.rangeAll(.prefix(prefix)).kvs {
            guard let store = keys.id(in: kv.keyText, under: prefix),
                let role = Placement.Role(rawValue: String(decoding: kv.value, as: UTF8.self))
            else { throw FleetError(.malformedRecord, "\(kv.keyText) does not hold a role") }
            roles[store] = role
        }
        return roles
    }

    /// How many store copies each node holds, from the index.
    public func loads(of nodes: [String]) async throws -> [String: Int] {
        var loads: [String: Int] = [:]
        for node in nodes {
            loads[node] = Int(try await etcd.range(.prefix(keys.byNode(node)), countOnly: true).count)
        }
        return loads
    }

    /// Places a new store on ``copies`` live nodes (``PlacementPolicy``),
    /// epoch 1, led by the one of them leading the fewest stores
    /// (`primaries`: stores each node leads, as the caller's placement
    /// cache counts them), unless it has a placement already: then returns
    /// that one with `created` false.
    ///
    /// - Throws: ``FleetError`` `notController` when `claim` no longer
    ///   holds, `noNodes` when no node is live; ``EtcdError``.
    public func create(
        _ store: String,
        by claim: ControllerElection.Claim,
        primaries: [String: Int] = [:]
    ) async throws -> (
        record: PlacementRecord, created: Bool
    ) {
        try FleetKeys.check(store, "the store id")
        if let existing = try await placement(of: store) { return (existing, false) }
        // A draining node is stopping: it takes no new store.
        let nodes = try await NodeMembership.liveNodes(etcd: etcd, keys: keys).filter { $0.record.draining != true }
        guard !nodes.isEmpty else { throw FleetError(.noNodes, "no node is live to place store '\(store)' on") }
        let loads = try await loads(of: nodes.map(\.id))
        let chosen = PlacementPolicy.choose(
            count: copies,
            from: nodes.map {
                .init(
                    id: $0.id,
                    zone: $0.record.zone,
                    load: loads[$0.id] ?? 0,
                    capacity: $0.record.capacity,
                    primaries: primaries[$0.id] ?? 0
                )
            }
        )
        // A sealed store's key id is named now, its key made by the first
        // copy that opens (``FleetKeys/dataKey(_:)``).
        let keyID = seals ? UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() : nil
        let placement = Placement(primary: chosen[0], replicas: Array(chosen.dropFirst()), epoch: 1, keyID: keyID)
        let key = keys.store(store)
        let txn = EtcdTxn(
            compare: [keys.fence(claim), EtcdCompare(key, .equal, .createRevision(0))],
            success: [.put(key, value: placement.bytes)] + indexChanges(store, from: nil, to: placement),
            failure: [.range(.key(keys.controller)), .range(.key(key))]
        )
        switch try await run(txn, store: store, target: placement, claim: claim) {
        case .changed(let record): return (record, true)
        case .conflict(let current): return (current, false)
        }
    }

    /// What a change did.
    public enum Outcome: Sendable, Hashable {
        /// The placement is now the one asked for.
        case changed(PlacementRecord)
        /// The record had changed since it was read: here it is now.
        case conflict(PlacementRecord)
    }

    /// Changes a store's placement from `record` (as read) to `placement`,
    /// if nothing changed it meanwhile; `also` runs in the same transaction
    /// (a joining copy's report, deleted as it is counted).
    ///
    /// - Throws: ``FleetError`` `notController` when `claim` no longer
    ///   holds, `invalidArgument` for a placement that names a node twice.
    public func change(
        _ record: PlacementRecord,
        to placement: Placement,
        by claim: ControllerElection.Claim,
        also: [EtcdOperation] = []
    ) async throws -> Outcome {
        try placement.check()
        let key = keys.store(record.store)
        let txn = EtcdTxn(
            compare: [keys.fence(claim), EtcdCompare(key, .equal, .modRevision(record.modRevision))],
            success: [.put(key, value: placement.bytes)]
                + indexChanges(record.store, from: record.placement, to: placement) + also,
            failure: [.range(.key(keys.controller)), .range(.key(key))]
        )
        return try await run(txn, store: record.store, target: placement, claim: claim)
    }

    /// The most operations etcd takes in one transaction's compare or
    /// success list (its `--max-txn-ops`, 128 by default).
    public static let maximumTransactionOperations = 128

    /// Splits `changes` into runs that each fit one transaction of
    /// ``changeAll(_:by:)``: at most ``maximumTransactionOperations``
    /// compares (the claim's fence and one per store) and as many writes
    /// (each store's record, its index entries, and what it also does).
    public func transactions(
        _ changes: [(record: PlacementRecord, placement: Placement, also: [EtcdOperation])]
    ) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        var operations = 0
        for (index, change) in changes.enumerated() {
            let cost =
                1 + indexChanges(change.record.store, from: change.record.placement, to: change.placement).count
                + change.also.count
            let compares = index - start + 2
            if index > start
                && (operations + cost > Self.maximumTransactionOperations
                    || compares > Self.maximumTransactionOperations)
            {
                runs.append(start..<index)
                start = index
                operations = 0
            }
            operations += cost
        }
        if start < changes.count { runs.append(start..<changes.count) }
        return runs
    }

    /// Changes several stores' placements in one transaction, each from its
    /// record as read: all of them, or — when any record changed meanwhile
    /// or the claim no longer holds — none (`nil`; so too when the answer
    /// was lost). The caller then changes them one by one
    /// (``change(_:to:by:also:)``), which says which conflicted.
    public func changeAll(
        _ changes: [(record: PlacementRecord, placement: Placement, also: [EtcdOperation])],
        by claim: ControllerElection.Claim
    ) async throws -> [PlacementRecord]? {
        var compare = [keys.fence(claim)]
        var success: [EtcdOperation] = []
        for change in changes {
            try change.placement.check()
            let key = keys.store(change.record.store)
            compare.append(EtcdCompare(key, .equal, .modRevision(change.record.modRevision)))
            success.append(.put(key, value: change.placement.bytes))
            success += indexChanges(change.record.store, from: change.record.placement, to: change.placement)
            success += change.also
        }
        let answer: EtcdTxnResult
        do {
            answer = try await etcd.txn(EtcdTxn(compare: compare, success: success))
        } catch let error as EtcdError where error.code == .noAnswer {
            return nil
        }
        guard answer.succeeded else { return nil }
        return changes.map {
            PlacementRecord(store: $0.record.store, placement: $0.placement, modRevision: answer.header.revision)
        }
    }

    /// The index operations that take `store`'s roles from `old` to `new`.
    func indexChanges(_ store: String, from old: Placement?, to new: Placement) -> [EtcdOperation] {
        var operations: [EtcdOperation] = []
        for node in old?.holders ?? [] where new.role(of: node) == nil {
            operations.append(.delete(.key(keys.role(of: store, on: node))))
        }
        for node in new.holders {
            guard let role = new.role(of: node), old?.role(of: node) != role else { continue }
            operations.append(.put(keys.role(of: store, on: node), value: Array(role.rawValue.utf8)))
        }
        return operations
    }

    /// Runs a fenced compare-and-swap of `store`'s record and says what
    /// happened; an unknown outcome is settled by reading the record (its
    /// value tells whether it is `target`).
    private func run(
        _ txn: EtcdTxn,
        store: String,
        target: Placement,
        claim: ControllerElection.Claim
    ) async throws -> Outcome {
        let answer: EtcdTxnResult
        do {
            answer = try await etcd.txn(txn)
        } catch let error as EtcdError where error.code == .noAnswer {
            guard let current = try await placement(of: store) else { throw error }
            return current.placement == target ? .changed(current) : .conflict(current)
        }
        if answer.succeeded {
            return .changed(PlacementRecord(store: store, placement: target, modRevision: answer.header.revision))
        }
        // Failed: fenced off, or the record moved.
        var ranges: [[EtcdKeyValue]] = []
        for response in answer.responses { if case .range(let result) = response { ranges.append(result.kvs) } }
        guard ranges.count == 2, ranges[0].first?.createRevision == claim.token else {
            throw FleetError(
                .notController,
                "node \(claim.nodeID) is no longer the controller (claim \(claim.token)); nothing was changed"
            )
        }
        guard let current = ranges[1].first else {
            throw FleetError(.malformedRecord, "store '\(store)' has no placement to change")
        }
        return .conflict(try record(current))
    }

    private func record(_ kv: EtcdKeyValue) throws -> PlacementRecord {
        guard let store = keys.id(in: kv.keyText, under: keys.stores) else {
            throw FleetError(.malformedRecord, "\(kv.keyText) is not a store's key")
        }
        return PlacementRecord(
            store: store,
            placement: try Placement(bytes: kv.value, key: kv.keyText),
            modRevision: kv.modRevision
        )
    }
}
