import Anchorage
import AnchorageService
import Foundation
import Hummingbird

/// `PUT /v1/source-priority`: the owner's order of sources for a quantity
/// type's merged statistics (ST-22..27), what the Health app's Data Sources
/// screen sets. `GET /v1/sources` answers it as `priority`.
///
/// ```sh
/// curl -X PUT -H 'Content-Type: application/json' \
///   -d '{"type":"stepCount","sources":["com.apple.health.watch"]}' http://127.0.0.1:8080/v1/source-priority
/// ```
struct SourcePriorityRoutes: Sendable {
    /// What the route takes: a quantity type, and its sources, highest
    /// priority first (empty: no order set).
    struct Body: Decodable {
        var type: String
        var sources: [String]
    }

    /// What it answers: the order now in force.
    struct Answer: Encodable {
        var type: String
        var priority: [String]
    }

    func set(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        let data = try await JSONBodies.collect(request, context: context, holding: "the sources' order")
        let body = try JSONDecoder().decode(Body.self, from: data)
        let sampleType: HKSampleType
        do {
            sampleType = try TextForms.sampleType(body.type)
        } catch {
            throw APIError(.badRequest, .unknownType, "type: \(error.description)")
        }
        guard let type = sampleType as? HKQuantityType else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "type: \(TextForms.shortName(of: sampleType.identifier)) is not a quantity type; a source order ranks the samples merged statistics count (ST-22)"
            )
        }
        // An app's store refuses (ST-27): the owner's setting only. Written
        // to the log as a save is: within the store's write guarantees.
        try context.writes.beforeWrite(.save, to: store)
        try await store.setSourcePriority(body.sources, for: type)
        try await context.writes.afterWrite(.save, to: store)
        return try JSONBodies.response(
            encoding: Answer(type: type.identifier, priority: store.sourcePriority(for: type))
        )
    }
}
