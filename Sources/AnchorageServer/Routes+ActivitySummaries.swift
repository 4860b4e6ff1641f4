import Anchorage
import AnchorageService
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/activity-summaries?from=2026-01-01&to=2026-01-31`: the daily
/// activity summaries of the days from `from` through `to`, in day order.
struct ActivitySummaryRoutes: Sendable {
    /// The most days one request may span (ten years): the answer's size
    /// is bounded by what the request asks for.
    static let maximumDays = 3_660

    func list(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        let parameters = QueryParameters(request)
        guard let fromText = parameters.string("from"), let toText = parameters.string("to") else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "'from' and 'to' are required days, as in from=2026-01-01&to=2026-01-31"
            )
        }
        let calendar = Calendar(identifier: .gregorian)
        guard let from = TextForms.day(fromText, calendar: calendar), let to = TextForms.day(toText, calendar: calendar)
        else {
            throw APIError(.badRequest, .invalidArgument, "'from' and 'to' must be days such as 2026-01-31")
        }
        let utc = TimeZone(identifier: "UTC")!
        guard let start = TextForms.date(fromText, in: utc), let end = TextForms.date(toText, in: utc) else {
            throw APIError(.badRequest, .invalidArgument, "'from' and 'to' must be days such as 2026-01-31")
        }
        let span = end.timeIntervalSince(start) / 86_400
        guard span >= 0 else { throw APIError(.badRequest, .invalidArgument, "'from' is after 'to'") }
        guard span < Double(Self.maximumDays) else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "a request may span at most \(Self.maximumDays) days; ask for the years one at a time"
            )
        }
        var summaries: [HKActivitySummary] = []
        if context.mayRead(HKObjectType.activitySummaryType()) {
            summaries = try await HKActivitySummaryQueryDescriptor(
                predicate: HKQuery.predicate(forActivitySummariesBetweenStart: from, end: to)
            ).result(for: store)
        }
        try await context.recordRead(
            AccessRecord(
                principal: "",
                action: "GET /v1/activity-summaries",
                types: [HKObjectType.activitySummaryType().identifier],
                from: start,
                to: end,
                count: summaries.count
            )
        )
        return try JSONBodies.response(wrapping: summaries, as: "activitySummaries")
    }
}
