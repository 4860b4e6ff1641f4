import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// A person's medications in the index: `hk.settings` rows
/// `medication/` ‖ the concept's domain ‖ 0 ‖ its code → the seq of the
/// entry whose medication is visible for that concept. The latest save of
/// a concept, by origin time then dot, wins on every peer, whatever order
/// entries arrive in (like activity summaries and settings).
extension HealthIndex {
    static let medicationPrefix = Array("medication/".utf8)

    /// The settings key of the medication concept `identifier`.
    static func medicationKey(_ identifier: HKHealthConceptIdentifier) -> [UInt8] {
        medicationPrefix + Array(identifier.domain.rawValue.utf8) + [0] + Array(identifier.code.utf8)
    }

    /// Files a saved medication under its concept. A payload that is not a
    /// valid medication is left out.
    func applyMedication(_ entry: LogEntry, in txn: borrowing WriteTransaction) throws {
        guard entry.operation == .save, let payload = entry.payload,
            let medication = payload.withUnsafeBytes({ UserAnnotatedMedicationJSON.decoded($0) })
        else { return }
        let key = Self.medicationKey(medication.medication.identifier)
        if let current = try settingEntry(key, in: txn), !entry.isLater(than: current) { return }
        try txn.put(entry.seq.bigEndianBytes, forKey: key, in: settings)
    }
}

extension StoreEngine {
    /// The visible medications, in the order of their concepts' keys
    /// (domain, then code; sealed or not).
    func userAnnotatedMedications(
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [HKUserAnnotatedMedication] {
        var seqs: [UInt64] = []
        let prefix = HealthIndex.medicationPrefix
        try txn.withCursor(on: index.settings) { cursor in
            try cursor.scan(from: prefix) { key, value in
                guard key.starts(with: prefix) else { return false }
                seqs.append(value.uint64(at: 0))
                return true
            }
        }
        let medications = try seqs.compactMap { seq in
            try log.withEntry(at: seq, in: txn) { _, payload in payload.flatMap(UserAnnotatedMedicationJSON.decoded) }
                ?? nil
        }
        // A sealed store's keys sort by pseudonym: the order is the concepts'.
        return medications.map { (HealthIndex.medicationKey($0.medication.identifier), $0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1)
    }
}
