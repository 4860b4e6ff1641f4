import Anchorage
import AnchorageService
import Foundation

extension HKHealthStore {
    /// Records a read of health data by the command line in the store's
    /// access log, before the command prints what it read, as principal
    /// `cli` (whatever `record` names). A read that cannot be recorded is
    /// refused, as over HTTP.
    ///
    /// ```swift
    /// try await store.recordRead(AccessRecord(principal: "", action: "anchorage samples",
    ///                                         types: [type.identifier], count: samples.count))
    /// ```
    func recordRead(_ record: AccessRecord) async throws {
        var record = record
        record.principal = "cli"
        try await AccessLog(log: eventLog()).record(record)
    }
}
