import AnchorageLog
import LMDB

// The store's highest fleet epoch: the index keeps the position of the epoch
// entry with the highest number (ties, which a single controller never makes,
// go to the smaller dot), so every copy agrees whatever order entries came in.

extension HealthIndex {
    static let fleetEpochSetting = Array("fleetEpoch".utf8)

    /// Keeps `entry` as the store's epoch when it is higher than the one kept.
    func applyEpoch(_ entry: LogEntry, in txn: borrowing WriteTransaction) throws {
        guard entry.operation == .save, let payload = entry.payload,
            let epoch = FleetEpoch(payload: payload)
        else { return }
        if let (dot, held) = try heldEpoch(in: txn),
            held.epoch > epoch.epoch || (held.epoch == epoch.epoch && !(entry.dot < dot))
        {
            return
        }
        try txn.put(entry.seq.bigEndianBytes, forKey: Self.fleetEpochSetting, in: settings)
    }

    /// The highest epoch the store holds, or `nil` before any.
    func fleetEpoch(in txn: borrowing some ReadableTransaction & ~Copyable) throws -> FleetEpoch? {
        try heldEpoch(in: txn)?.epoch
    }

    /// The kept epoch entry's dot and epoch.
    private func heldEpoch(
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> (dot: Dot, epoch: FleetEpoch)? {
        guard let seq = try settingSeq(Self.fleetEpochSetting, in: txn) else { return nil }
        let found = try lookup.withEntry(at: seq, in: txn) { entry, payload -> (dot: Dot, epoch: FleetEpoch)? in
            guard let payload, let epoch = FleetEpoch(payload: payload) else { return nil }
            return (entry.dot, epoch)
        }
        return found ?? nil
    }
}
