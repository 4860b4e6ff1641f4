import Anchorage
import AnchorageService
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The points of series data, in the forms their tools read:
///
/// - `GET /v1/workouts/{uuid}/routes?format=geojson|gpx`: a workout's
///   routes (GeoJSON by default);
/// - `GET /v1/electrocardiograms/{uuid}/voltages`: an ECG's voltages as CSV;
/// - `GET /v1/heartbeat-series/{uuid}/heartbeats`: a heartbeat series' beats
///   as JSON.
///
/// A token reads them only with read access to their type (routes,
/// electrocardiograms, heartbeat series); without it, or when the store
/// holds no such object, the answer is `404 notFound`, which never says
/// whether access was denied (AUTH-4). Each read is in the access log.
struct SeriesRoutes: Sendable {
    func routes(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        let workout = try Self.uuid(context)
        // Empty, repeated or unknown is 400 invalidArgument naming the formats.
        let text = try QueryParameters(request).choice("format", of: ["geojson", "gpx"]) ?? "geojson"
        let format = RouteDocument.Format(rawValue: text) ?? .geojson
        let routes =
            context.mayRead(HKSeriesType.workoutRoute()) && context.mayRead(HKObjectType.workoutType())
            ? try await Self.found { try await SeriesReads.routes(ofWorkout: workout, in: store) } : nil
        try await record(context, "GET /v1/workouts/{uuid}/routes", HKSeriesType.workoutRoute(), routes?.count ?? 0)
        guard let routes else { throw APIError(.notFound, .notFound, "no workout \(workout.uuidString)") }
        return Self.streamed(type: format == .gpx ? "application/gpx+xml" : "application/geo+json") { emit in
            try await RouteDocument.write(routes, as: format, from: store, to: emit)
        }
    }

    func voltages(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        let id = try Self.uuid(context)
        let type = HKObjectType.electrocardiogramType()
        let found =
            context.mayRead(type)
            ? try await Self.found { try await SeriesReads.electrocardiogram(id, in: store) } : nil
        try await record(context, "GET /v1/electrocardiograms/{uuid}/voltages", type, found == nil ? 0 : 1)
        guard let ecg = found else {
            throw APIError(.notFound, .notFound, "no electrocardiogram \(id.uuidString)")
        }
        return Self.streamed(type: "text/csv; charset=utf-8") { emit in
            try await ElectrocardiogramCSV.write(ecg, from: store, to: emit)
        }
    }

    func heartbeats(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        let id = try Self.uuid(context)
        let type = HKSeriesType.heartbeat()
        let found =
            context.mayRead(type) ? try await Self.found { try await SeriesReads.heartbeats(id, in: store) } : nil
        try await record(context, "GET /v1/heartbeat-series/{uuid}/heartbeats", type, found == nil ? 0 : 1)
        guard let series = found else {
            throw APIError(.notFound, .notFound, "no heartbeat series \(id.uuidString)")
        }
        return Self.streamed(type: "application/json") { emit in
            try await HeartbeatDocument.write(series, from: store, to: emit)
        }
    }

    /// A response whose body `write` makes as the client reads it, one
    /// series at a time: a workout with many long routes costs the node one
    /// route and one chunk at once, not the whole document. A store error
    /// after the first chunk ends the response early.
    private static func streamed(
        type: String,
        _ write: @escaping @Sendable (SeriesDocumentWriter.Emit) async throws -> Void
    ) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type],
            body: ResponseBody { writer in
                try await write { chunk in try await writer.write(ByteBuffer(bytes: chunk)) }
                try await writer.finish(nil)
            }
        )
    }

    /// What `read` finds; `nil` when it finds nothing the caller may read.
    private static func found<T>(_ read: () async throws -> T) async throws -> T? {
        do {
            return try await read()
        } catch is SeriesReads.NotFound {
            return nil
        } catch let error as HKError where error.code == .errorNoData || error.code == .errorAuthorizationNotDetermined
        {
            return nil
        }
    }

    private static func uuid(_ context: NodeContext) throws -> UUID {
        let text = try context.parameters.require("uuid")
        guard let uuid = UUID(uuidString: text) else {
            throw APIError(.badRequest, .invalidArgument, "'\(text.prefix(60))' is not a uuid")
        }
        return uuid
    }

    private func record(_ context: NodeContext, _ action: String, _ type: HKObjectType, _ count: Int) async throws {
        try await context.recordRead(
            AccessRecord(principal: "", action: action, types: [type.identifier], from: nil, to: nil, count: count)
        )
    }
}
