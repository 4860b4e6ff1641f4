public import Foundation

/// One read of health data, as the access log keeps it: who read, through
/// what, which types over which range, and how many objects or buckets
/// came back. It never holds a health value, a sample's uuid or a token.
///
/// ```swift
/// let record = AccessRecord(principal: "app:com.example.dash", action: "GET /v1/samples",
///                           types: ["stepCount"], count: 12)
/// ```
public struct AccessRecord: Sendable, Hashable, Codable {
    /// Who read: `owner`, `app:<bundle id>`, or `cli`.
    public var principal: String
    /// The route (`GET /v1/samples`) or command (`anchorage samples`).
    public var action: String
    /// The types read, by their short names.
    public var types: [String]
    /// The start of the date range asked for, if any.
    public var from: Date?
    /// The end of the date range asked for, if any.
    public var to: Date?
    /// The anchor a change feed resumed from, opaque.
    public var since: String?
    /// The anchor a change feed's answer ends at, opaque.
    public var until: String?
    /// How many objects (samples, deletions, sources, summaries) or
    /// statistics buckets the read returned.
    public var count: Int
    /// For streams: `start` when it opens, `page` for each page sent;
    /// `nil` for a single read.
    public var phase: String?

    /// A record of one read.
    public init(
        principal: String,
        action: String,
        types: [String],
        from: Date? = nil,
        to: Date? = nil,
        since: String? = nil,
        until: String? = nil,
        count: Int,
        phase: String? = nil
    ) {
        self.principal = principal
        self.action = action
        self.types = types
        self.from = from
        self.to = to
        self.since = since
        self.until = until
        self.count = count
        self.phase = phase
    }
}

/// A record read back from the access log, with when it was made and the
/// cursor that names its place.
public struct AccessLogEntry: Sendable, Hashable {
    /// When the read happened (to the millisecond).
    public var time: Date
    /// The entry's place: pass it as `after` to read the entries after it.
    public var cursor: String
    /// What was read.
    public var record: AccessRecord
}

extension AccessRecord {
    /// This record with its answer filled in: the anchor it ends at, the
    /// count, the stream phase.
    ///
    /// ```swift
    /// try await accessLog.record(opened.with(until: page.newAnchor.stringValue, count: page.count, phase: "page"))
    /// ```
    public func with(until: String?, count: Int, phase: String?) -> AccessRecord {
        var record = self
        record.until = until
        record.count = count
        record.phase = phase
        return record
    }
}
