import Anchorage
import AnchorageLog
import AnchorageService
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/statistics` (a statistics collection query) and
/// `GET /v1/sources`.
struct StatisticsRoutes: Sendable {
    /// Bounds how many statistics requests are computed at once.
    let limiter: WorkLimiter
    /// Where they are computed.
    let pool: LowPriorityPool
    /// Each principal's share of buckets a second.
    let quota: PrincipalQuota
    /// What a second of computation counts as, in buckets (see
    /// ``NodeConfiguration/statisticsBucketsPerCPUSecond``).
    let bucketsPerCPUSecond: Double

    func statistics(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        let asked = try StatisticsRequest(query: Self.parameters(of: request))
        let count = try asked.checkedBucketCount(in: store)
        // Counted whether the type is readable or not, so that the answer
        // says nothing about it (AUTH-4).
        try await quota.waitForTurn(
            Double(max(1, count)),
            by: context.quotaKey,
            of: "statistics buckets",
            advice: "for fewer buckets"
        )
        // Only the buckets asked for are computed. Unreadable types answer
        // like types without data (AUTH-4): the same empty buckets.
        let readable = context.mayRead(asked.type)
        // Computed on a low-priority thread: a wide request never holds a
        // thread of the cooperative pool, where every other request's handler
        // runs, and yields the cores to saves.
        let (encoded, cpu) = try await limiter.run {
            try await pool.run {
                let began = ThreadCPUClock.now()
                let encoded = try asked.table(from: store, readable: readable).json(buckets: count)
                return (encoded, ThreadCPUClock.now() - began)
            }
        }
        // Buckets made dear by many samples count at what they cost.
        quota.charge(cpu.timeInterval * bucketsPerCPUSecond - Double(max(1, count)), by: context.quotaKey)
        try await context.recordRead(
            AccessRecord(
                principal: "",
                action: "GET /v1/statistics",
                types: [asked.type.identifier],
                from: asked.start,
                to: asked.end,
                count: count
            )
        )
        ResponseRecorder.note(encoded)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: Self.sliced(encoded))
    }

    /// The request's query parameters, percent-decoded, in order.
    static func parameters(of request: Request) -> [(String, String)] {
        request.uri.queryParameters.map { key, value in
            (String(key), String(value).removingPercentEncoding ?? String(value))
        }
    }

    /// The most bytes handed to the connection at once: a wide answer goes
    /// out in pieces as the client takes them, so that sending it never
    /// holds an event loop (shared with other connections) for long.
    static let sliceSize = 64 * 1024

    /// A body that writes `buffer` in slices of ``sliceSize`` (views of
    /// its storage, not copies), each once the connection can take it.
    static func sliced(_ buffer: ByteBuffer) -> ResponseBody {
        ResponseBody(contentLength: buffer.readableBytes) { writer in
            var rest = buffer
            while let slice = rest.readSlice(length: min(sliceSize, rest.readableBytes)), slice.readableBytes > 0 {
                try await writer.write(slice)
            }
            try await writer.finish(nil)
        }
    }

    func sources(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        let parameters = QueryParameters(request)
        let type = try parameters.requiredSampleType()
        var sources: [HKSource] = []
        if context.mayRead(type) {
            sources = try await withCheckedThrowingContinuation { continuation in
                store.execute(
                    HKSourceQuery(sampleType: type, samplePredicate: nil) { _, found, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else {
                            continuation.resume(returning: Array(found ?? []))
                        }
                    }
                )
            }
        }
        // The owner's order for merged statistics (PUT /v1/source-priority),
        // to a token that reads the type: quantity types only.
        var priority: [String]?
        if let quantityType = type as? HKQuantityType {
            priority = context.mayRead(type) ? try store.sourcePriority(for: quantityType) : []
        }
        struct Source: Encodable {
            let name: String
            let bundleIdentifier: String
        }
        struct Answer: Encodable {
            let sources: [Source]
            let priority: [String]?
        }
        let list = sources.sorted { $0.bundleIdentifier < $1.bundleIdentifier }
            .map { Source(name: $0.name, bundleIdentifier: $0.bundleIdentifier) }
        try await context.recordRead(
            AccessRecord(principal: "", action: "GET /v1/sources", types: [type.identifier], count: list.count)
        )
        return try JSONBodies.response(encoding: Answer(sources: list, priority: priority))
    }
}
