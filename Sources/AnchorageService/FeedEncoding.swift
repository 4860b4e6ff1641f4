public import Anchorage
import Foundation
public import NIOCore

/// The JSON forms of the change feed (docs/http-api.md): a page, its
/// NDJSON lines and its server-sent events. Objects use the JSON form of
/// docs/json-format.md, written by ``HealthObjectWriter``.
public struct FeedEncoding {
    public init() {}

    private var writer = HealthObjectWriter()
    private let summaryEncoder = CanonicalJSON.encoder()

    /// `{"added":[…],"deleted":[{"uuid":…}],"activitySummaries":[…],"hasMore":…,"newAnchor":…}`.
    public mutating func page(_ result: ChangeFeedDescriptor.Result, hasMore: Bool) throws -> ByteBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            result.addedSamples.count * 420 + result.deletedObjects.count * 50 + result.activitySummaries.count * 600
                + 128
        )
        try appendPage(result, hasMore: hasMore, to: &bytes)
        return ByteBuffer(bytes: bytes)
    }

    private mutating func appendPage(
        _ result: ChangeFeedDescriptor.Result,
        hasMore: Bool,
        to bytes: inout [UInt8]
    ) throws {
        bytes.append(contentsOf: #"{"added":["#.utf8)
        for (index, sample) in result.addedSamples.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try writer.append(sample, to: &bytes)
        }
        bytes.append(contentsOf: #"],"deleted":["#.utf8)
        for (index, deleted) in result.deletedObjects.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: #"{"uuid":""#.utf8)
            deleted.uuid.appendText(to: &bytes)
            bytes.append(contentsOf: #""}"#.utf8)
        }
        bytes.append(contentsOf: #"],"activitySummaries":"#.utf8)
        bytes.append(contentsOf: try summaryEncoder.encode(result.activitySummaries))
        bytes.append(contentsOf: #","hasMore":\#(hasMore),"newAnchor":"\#(result.newAnchor.stringValue)"}"#.utf8)
    }

    /// One line per change, then `{"anchor":…}`: a consumer that applies the
    /// lines up to an anchor line together, and resumes from the last anchor
    /// line it applied, sees every change exactly once.
    public mutating func lines(_ result: ChangeFeedDescriptor.Result) throws -> ByteBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(result.addedSamples.count * 430 + result.deletedObjects.count * 60 + 80)
        for sample in result.addedSamples {
            bytes.append(contentsOf: #"{"added":"#.utf8)
            try writer.append(sample, to: &bytes)
            bytes.append(contentsOf: "}\n".utf8)
        }
        for deleted in result.deletedObjects {
            bytes.append(contentsOf: #"{"deleted":{"uuid":""#.utf8)
            deleted.uuid.appendText(to: &bytes)
            bytes.append(contentsOf: "\"}}\n".utf8)
        }
        for summary in result.activitySummaries {
            bytes.append(contentsOf: #"{"activitySummary":"#.utf8)
            bytes.append(contentsOf: try summaryEncoder.encode(summary))
            bytes.append(contentsOf: "}\n".utf8)
        }
        bytes += Self.anchorLineBytes(result.newAnchor)
        return ByteBuffer(bytes: bytes)
    }

    /// `{"anchor":…}`: also the NDJSON heartbeat, repeating the last anchor.
    public static func anchorLine(_ anchor: HKQueryAnchor) -> ByteBuffer {
        ByteBuffer(bytes: anchorLineBytes(anchor))
    }

    private static func anchorLineBytes(_ anchor: HKQueryAnchor) -> [UInt8] {
        Array("{\"anchor\":\"\(anchor.stringValue)\"}\n".utf8)
    }

    /// One server-sent event per page, its id the page's new anchor, so an
    /// `EventSource` that reconnects resumes with `Last-Event-ID`.
    public mutating func event(_ result: ChangeFeedDescriptor.Result) throws -> ByteBuffer {
        var bytes = Array("id: \(result.newAnchor.stringValue)\nevent: changes\ndata: ".utf8)
        try appendPage(result, hasMore: false, to: &bytes)
        bytes.append(contentsOf: "\n\n".utf8)
        return ByteBuffer(bytes: bytes)
    }

    /// An SSE comment: ignored by clients, keeps the connection alive.
    public static let eventHeartbeat = ByteBuffer(string: ": heartbeat\n\n")
}
