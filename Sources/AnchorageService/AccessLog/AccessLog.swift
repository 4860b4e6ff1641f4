public import AnchorageCore
public import AnchorageLog
public import Foundation

/// A store's access log: every read of health data, recorded in the
/// store's node-local records (never replicated, outside the hash chain
/// and the state digest), kept for ``retention``, readable by the owner.
///
/// ```swift
/// let accessLog = AccessLog(log: try owner.eventLog())
/// try await accessLog.record(AccessRecord(principal: "owner", action: "GET /v1/samples",
///                                         types: ["stepCount"], count: 3))
/// let page = try accessLog.page(after: nil, from: nil, to: nil, limit: 100)
/// ```
public struct AccessLog: Sendable {
    /// The default retention: 90 days, and at most a million entries.
    public static let defaultRetention = LocalRecordRetention(
        maximumAge: .seconds(90 * 86_400),
        maximumCount: 1_000_000
    )
    /// The most entries one page returns.
    public static let maximumPageSize = 1_000

    /// The store's log.
    public let log: EventLog
    /// How long entries are kept.
    public var retention: LocalRecordRetention
    /// The clock whose wall time entries are stamped with (tests move it
    /// by hand).
    public var clock: StoreClock

    /// The access log of `log`'s store.
    public init(
        log: EventLog,
        retention: LocalRecordRetention = AccessLog.defaultRetention,
        clock: StoreClock = .continuous
    ) {
        self.log = log
        self.retention = retention
        self.clock = clock
    }

    /// Records one read durably, before its answer is sent.
    ///
    /// A log opened for reading (a command-line read beside a running node)
    /// appends without pruning: the writer's next append prunes by its own
    /// retention, which may be longer than this one.
    ///
    /// - Throws: ``ServiceError`` `storageFailed` when it cannot be
    ///   written: the caller then refuses the read (no unrecorded access).
    public func record(_ record: AccessRecord) async throws {
        do {
            let bytes = try Self.encoder.encode(record)
            let kept = log.isReadOnly ? LocalRecordRetention(maximumAge: nil, maximumCount: nil) : retention
            try await log.appendLocalRecords([Array(bytes)], at: clock.date(), retention: kept)
        } catch {
            throw ServiceError(.storageFailed, "the read could not be recorded in the access log: \(error)")
        }
    }

    /// Up to `limit` entries after the cursor `after` (or from `from`),
    /// before `to`, oldest first, and the cursor of the next page (`nil`
    /// at the end).
    ///
    /// - Throws: ``ServiceError`` `invalidCursor`, `invalidArgument`.
    public func page(
        after: String?,
        from: Date?,
        to: Date?,
        limit: Int
    ) throws -> (entries: [AccessLogEntry], next: String?) {
        guard (1...Self.maximumPageSize).contains(limit) else {
            throw ServiceError(.invalidArgument, "'limit' must be a whole number from 1 to \(Self.maximumPageSize)")
        }
        if let from, let to, from > to { throw ServiceError(.invalidArgument, "'from' is after 'to'") }
        var key: LocalRecordKey?
        if let after {
            // A cursor names an entry a page showed: one still kept, or one
            // older than every entry kept (removed by retention since).
            guard let parsed = LocalRecordKey(string: after), try known(parsed) else {
                throw ServiceError(.invalidCursor, "'after' is not a cursor an access-log page handed out")
            }
            key = parsed
        }
        let page: LocalRecordPage
        do {
            page = try log.localRecords(after: key, from: from, to: to, limit: limit)
        } catch {
            throw ServiceError(.storageFailed, "the access log could not be read: \(error)")
        }
        let entries = page.records.compactMap { key, value -> AccessLogEntry? in
            guard let record = try? Self.decoder.decode(AccessRecord.self, from: Data(value)) else { return nil }
            return AccessLogEntry(time: key.date, cursor: key.stringValue, record: record)
        }
        return (entries, page.next?.stringValue)
    }

    private func known(_ key: LocalRecordKey) throws(ServiceError) -> Bool {
        do {
            return try log.isKnownLocalRecordKey(key)
        } catch {
            throw ServiceError(.storageFailed, "the access log could not be read: \(error)")
        }
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }
}
