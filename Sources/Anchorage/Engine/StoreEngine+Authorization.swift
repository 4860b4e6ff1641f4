import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension StoreEngine {
    func appendAuthorization(_ record: AuthorizationRecord) async throws(HKError) {
        do {
            try await log.append([.save(id: .random(), kind: StoreKind.authorization, payload: record.bytes)])
        } catch {
            throw HKError.wrapping(error)
        }
    }

    /// Every grant row in `status`, by app.
    func grants(
        in status: AuthorizationRecord.Status,
        in txn: borrowing ReadTransaction
    ) throws -> [HKSource: (share: Set<HKSampleType>, read: Set<HKObjectType>)] {
        var found: [HKSource: (share: Set<HKSampleType>, read: Set<HKObjectType>)] = [:]
        try txn.withCursor(on: index.grants) { cursor in
            try cursor.scan { key, value in
                let length = Int(key[0])
                guard key.count == 1 + length + 5, value.first == status.rawValue,
                    let type = TypeCatalog.byKindCode[key.uint32(at: 1 + length)]
                else { return true }
                let bundle = String(decoding: UnsafeRawBufferPointer(rebasing: key[1..<1 + length]), as: UTF8.self)
                let source = HKSource(name: bundle, bundleIdentifier: bundle)
                if key[key.count - 1] == AuthorizationRecord.Access.share.rawValue,
                    let sampleType = type as? HKSampleType
                {
                    found[source, default: ([], [])].share.insert(sampleType)
                } else {
                    found[source, default: ([], [])].read.insert(type)
                }
                return true
            }
        }
        return found
    }
}
