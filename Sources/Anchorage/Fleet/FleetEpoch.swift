import Foundation

/// A fleet epoch: the number the fleet's controller gave a store's primary
/// when it placed or promoted it, recorded in the store's own log.
///
/// A newly promoted primary appends its epoch as an entry
/// (``HKHealthStore/beginFleetEpoch(_:)``) before it takes writes. The
/// entry replicates like any other and is part of the hash chain, so every
/// copy learns it, and a copy never follows or acknowledges a primary whose
/// epoch is lower than the highest it holds (docs/fleet.md, "Epochs").
///
/// ```swift
/// let epoch = FleetEpoch(epoch: 4, primary: "n2", revision: 1_812)
/// try await store.beginFleetEpoch(epoch)
/// try store.fleetEpoch()?.epoch      // 4
/// ```
public struct FleetEpoch: Sendable, Hashable, Codable {
    /// The epoch's number; each promotion gives a store the next one.
    public var epoch: UInt64
    /// The node the epoch made primary.
    public var primary: String
    /// The coordinator's revision of the placement that named it (etcd's
    /// mod revision), for tracing the entry back to the decision.
    public var revision: Int64

    public init(epoch: UInt64, primary: String, revision: Int64) {
        self.epoch = epoch
        self.primary = primary
        self.revision = revision
    }

    /// The entry's payload: JSON with sorted keys, the bytes every copy
    /// stores.
    var payload: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding three plain fields cannot fail.
        return Array((try? encoder.encode(self)) ?? Data())
    }

    /// The epoch an entry's payload holds, or `nil` when it is none (a
    /// newer form, or damage): such an entry is left out, never a failure.
    init?(payload: some Collection<UInt8>) {
        guard payload.count <= 4_096,
            let value = try? JSONDecoder().decode(FleetEpoch.self, from: Data(payload)),
            value.epoch > 0
        else { return nil }
        self = value
    }
}

/// Why an epoch could not begin.
public struct FleetEpochError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The epoch asked for.
    public var requested: UInt64
    /// The highest epoch the store holds already.
    public var held: UInt64

    public var description: String {
        "epoch \(requested) cannot begin: this copy holds epoch \(held) already, and epochs only go up"
    }
}
