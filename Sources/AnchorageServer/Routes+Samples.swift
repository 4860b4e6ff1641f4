import Anchorage
import AnchorageService
import Foundation
import HTTPTypes
import Hummingbird

/// `POST /v1/samples`, `DELETE /v1/samples/{uuid}`, `GET /v1/samples`.
struct SampleRoutes: Sendable {
    let configuration: NodeConfiguration
    /// Each app's share of writes (``NodeConfiguration/appWriteObjectsPerSecond``).
    let quota: PrincipalQuota

    init(configuration: NodeConfiguration) {
        self.configuration = configuration
        let rate = Double(configuration.appWriteObjectsPerSecond)
        quota = PrincipalQuota(
            rate: rate,
            burst: rate,
            maximumWait: configuration.writeTurnWait,
            clock: configuration.clock
        )
    }

    /// Waits for the turn of a write of `objects` by an app (the owner's
    /// writes go at once).
    func waitForTurn(writing objects: Int, context: NodeContext) async throws {
        guard let principal = context.writeQuotaKey else { return }
        try await quota.waitForTurn(
            Double(max(objects, configuration.writeRequestObjects)),
            by: principal,
            of: "objects written",
            advice: "write more objects a request and fewer requests"
        )
    }

    func save(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        var reader = SampleBatch.Reader()
        if let declared = request.headers[.contentLength].flatMap(Int.init) {
            // Room for what is declared, up to 64 KiB: the rest grows as it arrives.
            reader.reserveCapacity(min(declared, 64 << 10))
        }
        try await JSONBodies.stream(request, context: context, holding: "the samples") { chunk in
            chunk.withUnsafeReadableBytes { reader.append($0) }
        }
        let batch = try SampleWrites.batch(reader)
        let saved = try await SampleWrites.save(batch, to: store, guarded: context.writes) { count in
            try await waitForTurn(writing: count, context: context)
        }
        let uuids = saved.map { "\"\($0.text)\"" }.joined(separator: ",")
        return JSONBodies.response(
            ByteBuffer(string: "{\"saved\":\(saved.count),\"uuids\":[\(uuids)]}"),
            status: .created
        )
    }

    func delete(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        let text = try context.parameters.require("uuid")
        guard let uuid = UUID(uuidString: text) else {
            throw APIError(.badRequest, .invalidArgument, "'\(text.prefix(60))' is not a uuid")
        }
        let deletion = try await SampleWrites.delete([uuid], from: store, guarded: context.writes) { count in
            try await waitForTurn(writing: count, context: context)
        }
        guard deletion.deleted > 0 else {
            throw APIError(.notFound, .notFound, "no sample \(uuid.uuidString) to delete")
        }
        return Response(status: .noContent)
    }

    func list(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        let parameters = QueryParameters(request)
        let type = try parameters.requiredSampleType()
        let zone = try parameters.parse("tz", TextForms.timeZone) ?? TimeZone(identifier: "UTC")!
        let start = try parameters.date("start", in: zone)
        let end = try parameters.date("end", in: zone)
        let limit = try parameters.integer(
            "limit",
            in: 1...configuration.maximumPageSize,
            default: min(1_000, configuration.maximumPageSize)
        )
        let sort: SortDescriptor<HKSample>
        switch try parameters.choice("sort", of: ["startDate", "-startDate", "endDate", "-endDate"]) {
        case "-startDate": sort = SortDescriptor(\.startDate, order: .reverse)
        case "endDate": sort = SortDescriptor(\.endDate, order: .forward)
        case "-endDate": sort = SortDescriptor(\.endDate, order: .reverse)
        default: sort = SortDescriptor(\.startDate, order: .forward)
        }
        let predicate =
            start == nil && end == nil ? nil : HKQuery.predicateForSamples(withStart: start, end: end, options: [])
        // Reads never say whether access was denied (AUTH-4).
        let samples =
            context.mayRead(type)
            ? try await HKSampleQueryDescriptor(
                predicates: [.sample(type: type, predicate: predicate)],
                sortDescriptors: [sort],
                limit: limit
            ).result(for: store) : []
        try await context.recordRead(
            AccessRecord(
                principal: "",
                action: "GET /v1/samples",
                types: [type.identifier],
                from: start,
                to: end,
                count: samples.count
            )
        )
        var writer = HealthObjectWriter()
        var bytes = Array(#"{"samples":["#.utf8)
        for (index, sample) in samples.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try writer.append(sample, to: &bytes)
        }
        bytes += Array("]}".utf8)
        return JSONBodies.response(ByteBuffer(bytes: bytes))
    }
}
