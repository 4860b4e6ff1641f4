import Anchorage
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/statistics` (a statistics collection query) and
/// `GET /v1/sources`.
struct StatisticsRoutes: Sendable {
    /// The most buckets one request may ask for.
    static let maximumBuckets = 100_000
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
        let parameters = QueryParameters(request)
        let sampleType = try parameters.requiredSampleType()
        guard let type = sampleType as? HKQuantityType else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "type: \(sampleType.identifier) is not a quantity type; statistics need one such as stepCount"
            )
        }
        var asked = try parameters.parse("options", TextForms.statisticsOptions) ?? .cumulativeSum
        if let separate = parameters.string("separateBySource") {
            guard separate == "true" || separate == "false" else {
                throw APIError.badRequest("separateBySource is true or false")
            }
            if separate == "true" { asked.insert(.separateBySource) }
        }
        let options = asked
        // Only the samples of these apps and devices (bundle identifiers), as
        // HKQuery.predicateForObjects(from:) selects them.
        let sources = parameters.list("sources")
        guard sources.count <= 100, sources.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 255 }) else {
            throw APIError.badRequest("sources: 1 to 100 bundle identifiers, comma-separated")
        }
        let sourcePredicate =
            sources.isEmpty
            ? nil : HKQuery.predicateForObjects(from: Set(sources.map { HKSource(name: $0, bundleIdentifier: $0) }))
        let intervalText = parameters.string("interval") ?? "1d"
        var interval = try parameters.parse("interval", TextForms.interval) ?? DateComponents(day: 1)
        let zone = try parameters.parse("tz", TextForms.timeZone) ?? TimeZone(identifier: "UTC")!
        interval.timeZone = zone
        guard let start = try parameters.date("from", in: zone), let end = try parameters.date("to", in: zone) else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "'from' and 'to' are required, as in from=2024-06-01&to=2024-06-07"
            )
        }
        guard start <= end else { throw APIError(.badRequest, .invalidArgument, "'from' is after 'to'") }
        let anchorDate = try parameters.date("anchor", in: zone) ?? start
        let unit: HKUnit
        if let text = parameters.string("unit") {
            do {
                unit = try HKUnit.parse(text)
            } catch {
                throw APIError(.badRequest, .invalidArgument, "unit: \(error.messageWithRule)")
            }
            guard type.is(compatibleWith: unit) else {
                throw APIError(
                    .badRequest,
                    .incompatibleUnit,
                    "\(type.identifier) cannot be expressed in \(unit.unitString) (UNIT-18)"
                )
            }
        } else {
            unit = TextForms.displayUnit(of: type)
        }
        let descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: type, predicate: sourcePredicate),
            options: options,
            anchorDate: anchorDate,
            intervalComponents: interval
        )
        let count = try descriptor.bucketCount(for: store, from: start, to: end)
        guard count <= Self.maximumBuckets else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "that asks for \(count) buckets, more than the \(Self.maximumBuckets) one request may compute; "
                    + "use a longer interval or a shorter range"
            )
        }
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
        let readable = context.mayRead(type)
        let timeZone = parameters.string("tz") ?? "UTC"
        // Computed on a low-priority thread: a wide request never holds a
        // thread of the cooperative pool, where every other request's handler
        // runs, and yields the cores to saves.
        let (encoded, cpu) = try await limiter.run {
            try await pool.run {
                let began = ThreadCPUClock.now()
                let encoded = try Self.encoded(
                    descriptor.computedResult(for: store, from: start, to: end, readable: readable),
                    type: type,
                    options: options,
                    from: start,
                    to: end,
                    unit: unit,
                    interval: intervalText,
                    timeZone: timeZone,
                    buckets: count
                )
                return (encoded, ThreadCPUClock.now() - began)
            }
        }
        // Buckets made dear by many samples count at what they cost.
        quota.charge(Self.seconds(cpu) * bucketsPerCPUSecond - Double(max(1, count)), by: context.quotaKey)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: Self.sliced(encoded))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
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

    /// The JSON answer: every bucket from the one containing `start`
    /// through the one containing `end`, written into one buffer (built on
    /// the caller's thread, the low-priority pool, and never copied after).
    static func encoded(
        _ collection: HKStatisticsCollection,
        type: HKQuantityType,
        options: HKStatisticsOptions,
        from start: Date,
        to end: Date,
        unit: HKUnit,
        interval intervalText: String,
        timeZone: String,
        buckets: Int
    ) throws -> ByteBuffer {
        let frame = try JSONBodies.encoder().encode(
            Body(
                type: type.identifier,
                unit: unit.unitString,
                options: Self.names(of: options),
                interval: intervalText,
                timeZone: timeZone,
                statistics: []
            )
        )
        // The rows are written by hand into the place of the empty list.
        guard let place = frame.range(of: Data("\"statistics\":[]".utf8)) else {
            throw APIError(.internalServerError, .internalError, "the statistics answer could not be assembled")
        }
        let opening = place.upperBound - 1
        var answer = ByteBuffer()
        // About 80 bytes a row (two dates and a value): one allocation, no regrowth.
        answer.reserveCapacity(frame.count + 96 * buckets)
        answer.writeBytes(frame[..<opening])
        var row: [UInt8] = []
        var first = true
        // Empty buckets are mostly only their bounds: written without
        // making their statistics, when an empty one shows no values.
        let probe = Row(collection.emptyStatistics(from: start, to: start), options: options, unit: unit)
        let emptyIsBoundsOnly = probe == Row(startDate: start, endDate: start)
        collection.forEachBucket(from: start, to: end) { bounds, statistics in
            row.removeAll(keepingCapacity: true)
            if !first { row.append(UInt8(ascii: ",")) }
            first = false
            if let statistics {
                Row(statistics, options: options, unit: unit).appendJSON(to: &row)
            } else if emptyIsBoundsOnly {
                Row(startDate: bounds.start, endDate: bounds.end).appendJSON(to: &row)
            } else {
                Row(collection.emptyStatistics(from: bounds.start, to: bounds.end), options: options, unit: unit)
                    .appendJSON(to: &row)
            }
            answer.writeBytes(row)
        }
        answer.writeBytes(frame[opening...])
        return answer
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
        struct Source: Encodable {
            let name: String
            let bundleIdentifier: String
        }
        let list = sources.sorted { $0.bundleIdentifier < $1.bundleIdentifier }
            .map { Source(name: $0.name, bundleIdentifier: $0.bundleIdentifier) }
        return try JSONBodies.response(wrapping: list, as: "sources")
    }

    struct Body: Encodable {
        let type: String
        let unit: String
        let options: [String]
        let interval: String
        let timeZone: String
        let statistics: [Row]
    }

    static func names(of options: HKStatisticsOptions) -> [String] {
        [
            (HKStatisticsOptions.cumulativeSum, "sum"), (.discreteAverage, "average"), (.discreteMin, "min"),
            (.discreteMax, "max"), (.mostRecent, "mostRecent"), (.duration, "duration"),
            (.separateBySource, "separateBySource"),
        ].filter { options.contains($0.0) }.map(\.1)
    }
}
