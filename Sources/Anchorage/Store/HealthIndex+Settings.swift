import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

// Settings (the characteristics, the preferred units) are whole JSON values
// saved as log entries; the latest entry wins on every peer and the index
// keeps its position under the setting's key.

extension HealthIndex {
    /// The position of the entry that decides the setting under `key`, if
    /// one was saved.
    func settingSeq(_ key: [UInt8], in txn: borrowing some ReadableTransaction & ~Copyable) throws -> UInt64? {
        try txn.withValue(forKey: key, in: settings) { $0.uint64(at: 0) }
    }

    /// The entry that decides the setting under `key`, if one was saved.
    func settingEntry(
        _ key: [UInt8],
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> LogEntry? {
        guard let seq = try settingSeq(key, in: txn) else { return nil }
        return try lookup.entry(at: seq, in: txn)
    }
}

extension StoreEngine {
    /// The setting under `key` as last saved, or `nil` when none was saved
    /// or it does not decode as `Value`.
    ///
    /// ```swift
    /// let me = try engine.setting(HealthIndex.characteristicsSetting, as: HKCharacteristics.self, in: txn)
    /// ```
    func setting<Value: Decodable>(
        _ key: [UInt8],
        as type: Value.Type,
        in txn: borrowing ReadTransaction
    ) throws -> Value? {
        guard let seq = try index.settingSeq(key, in: txn) else { return nil }
        let value = try log.withEntry(at: seq, in: txn) { _, payload in
            payload.flatMap { try? JSONDecoder().decode(Value.self, from: Data($0)) }
        }
        return value ?? nil
    }
}

extension HKHealthStore {
    /// Saves a setting's whole new value as JSON with sorted keys (the bytes
    /// every peer writes for it).
    func saveSetting(_ value: some Encodable, kind: EntryKind) async throws {
        let engine = try await openEngine()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let payload = Array(try encoder.encode(value))
        do {
            try await engine.log.append([.save(id: .random(), kind: kind, payload: payload)])
        } catch {
            throw HKError.wrapping(error)
        }
    }
}
