import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// One app's background delivery for one type: how often, and the position
/// of the log through which the app has acknowledged its updates. Kept in
/// the log's node-local cursors (`hk.delivery/<app>/<type>`), so it
/// survives restarts and is never replicated: background delivery is a
/// matter between this node and its apps.
struct DeliveryRegistration: Sendable, Hashable {
    var frequency: HKUpdateFrequency
    /// The log position acknowledged through; changes after it are pending.
    var acknowledged: UInt64
    /// The store incarnation `acknowledged` belongs to: after a restore
    /// from a backup, everything counts as pending again (nothing is lost).
    var incarnation: UInt64

    static let prefix = "hk.delivery/"

    /// The cursor name of `principal`'s registration for `type`.
    static func name(principal: String?, type: HKObjectType) -> String {
        namePrefix(principal: principal) + type.identifier
    }

    /// The prefix of every registration of `principal`.
    static func namePrefix(principal: String?) -> String {
        prefix + (principal ?? "~owner") + "/"
    }

    /// `[1 version][1 frequency][8 acknowledged][8 incarnation]`, big-endian.
    var bytes: [UInt8] {
        [1, UInt8(frequency.rawValue)] + acknowledged.bigEndianBytes + incarnation.bigEndianBytes
    }

    init(frequency: HKUpdateFrequency, acknowledged: UInt64, incarnation: UInt64) {
        self.frequency = frequency
        self.acknowledged = acknowledged
        self.incarnation = incarnation
    }

    /// Decodes ``bytes``; `nil` for anything else.
    init?(bytes: [UInt8]) {
        guard bytes.count == 18, bytes[0] == 1, let frequency = HKUpdateFrequency(rawValue: Int(bytes[1])) else {
            return nil
        }
        self.frequency = frequency
        self.acknowledged = UInt64(bigEndianBytes: Array(bytes[2..<10])) ?? 0
        self.incarnation = UInt64(bigEndianBytes: Array(bytes[10..<18])) ?? 0
    }

    /// The position acknowledged in the store's current incarnation.
    func acknowledged(in log: EventLog) -> UInt64 {
        incarnation == log.incarnation ? acknowledged : 0
    }
}
