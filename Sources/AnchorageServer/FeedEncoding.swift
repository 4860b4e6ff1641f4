import Anchorage
import Foundation
import Hummingbird

/// The JSON forms of the change feed (docs/http-api.md): a page, its
/// NDJSON lines and its server-sent events. Objects use the JSON form of
/// docs/json-format.md.
struct FeedEncoding {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `{"added":[…],"deleted":[{"uuid":…}],"hasMore":…,"newAnchor":…}`.
    func page(_ result: HKAnchoredObjectQueryDescriptor<HKSample>.Result, hasMore: Bool) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("{\"added\":[")
        for (index, sample) in result.addedSamples.enumerated() {
            if index > 0 { buffer.writeString(",") }
            buffer.writeBytes(try encoder.encode(HealthObject(sample)))
        }
        buffer.writeString("],\"deleted\":[")
        for (index, deleted) in result.deletedObjects.enumerated() {
            if index > 0 { buffer.writeString(",") }
            buffer.writeString("{\"uuid\":\"\(deleted.uuid.uuidString)\"}")
        }
        buffer.writeString("],\"hasMore\":\(hasMore),\"newAnchor\":\"\(result.newAnchor.stringValue)\"}")
        return buffer
    }

    /// One line per change, then `{"anchor":…}`: a consumer that applies the
    /// lines up to an anchor line together, and resumes from the last anchor
    /// line it applied, sees every change exactly once.
    func lines(_ result: HKAnchoredObjectQueryDescriptor<HKSample>.Result) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        for sample in result.addedSamples {
            buffer.writeString("{\"added\":")
            buffer.writeBytes(try encoder.encode(HealthObject(sample)))
            buffer.writeString("}\n")
        }
        for deleted in result.deletedObjects {
            buffer.writeString("{\"deleted\":{\"uuid\":\"\(deleted.uuid.uuidString)\"}}\n")
        }
        var anchorLine = Self.anchorLine(result.newAnchor)
        buffer.writeBuffer(&anchorLine)
        return buffer
    }

    /// `{"anchor":…}`: also the NDJSON heartbeat, repeating the last anchor.
    static func anchorLine(_ anchor: HKQueryAnchor) -> ByteBuffer {
        ByteBuffer(string: "{\"anchor\":\"\(anchor.stringValue)\"}\n")
    }

    /// One server-sent event per page, its id the page's new anchor, so an
    /// `EventSource` that reconnects resumes with `Last-Event-ID`.
    func event(_ result: HKAnchoredObjectQueryDescriptor<HKSample>.Result) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("id: \(result.newAnchor.stringValue)\nevent: changes\ndata: ")
        var page = try page(result, hasMore: false)
        buffer.writeBuffer(&page)
        buffer.writeString("\n\n")
        return buffer
    }

    /// An SSE comment: ignored by clients, keeps the connection alive.
    static let eventHeartbeat = ByteBuffer(string: ": heartbeat\n\n")
}
