import Anchorage
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage route WORKOUT-UUID --format gpx|geojson`: a workout's routes.
struct RouteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "A workout's routes, as GPX or GeoJSON, for map tools.",
        discussion:
            "Every route associated with the workout, oldest first, each with all its locations in time order. "
            + "GPX has one track per route; GeoJSON one LineString feature per route, [longitude, latitude, altitude]."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The workout's uuid.")
    var uuid: String

    @Option(help: "geojson or gpx.")
    var format = "geojson"

    func validate() throws {
        guard UUID(uuidString: uuid) != nil else { throw ValidationError("\(uuid) is not a uuid") }
        guard ["geojson", "gpx"].contains(format) else { throw ValidationError("--format is geojson or gpx") }
    }

    func run() async throws {
        let id = UUID(uuidString: uuid)!
        let format = RouteDocument.Format(rawValue: format)!
        try await storeOptions.withStoreForReading(failure: "cannot read the routes") { store in
            let routes = try await SeriesCommandReads.found { try await SeriesReads.routes(ofWorkout: id, in: store) }
            try await RouteDocument.write(routes, as: format, from: store) { CLIOutput.current.write($0) }
        }
        // GeoJSON is one line; GPX ends with its newline.
        if format == .geojson { CLIOutput.current.line("") }
    }
}

/// `anchorage ecg UUID`: an electrocardiogram's voltages as CSV.
struct ElectrocardiogramCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ecg",
        abstract: "An electrocardiogram's voltages as CSV: seconds since its start, then microvolts per lead."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The electrocardiogram's uuid.")
    var uuid: String

    func validate() throws {
        guard UUID(uuidString: uuid) != nil else { throw ValidationError("\(uuid) is not a uuid") }
    }

    func run() async throws {
        let id = UUID(uuidString: uuid)!
        try await storeOptions.withStoreForReading(failure: "cannot read the electrocardiogram") { store in
            let ecg = try await SeriesCommandReads.found { try await SeriesReads.electrocardiogram(id, in: store) }
            try await ElectrocardiogramCSV.write(ecg, from: store) { CLIOutput.current.write($0) }
        }
    }
}

/// `anchorage heartbeats UUID`: a heartbeat series' beats as JSON.
struct HeartbeatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heartbeats",
        abstract: "A heartbeat series' beats as JSON: seconds since its start, and whether a gap came before each."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The heartbeat series' uuid.")
    var uuid: String

    func validate() throws {
        guard UUID(uuidString: uuid) != nil else { throw ValidationError("\(uuid) is not a uuid") }
    }

    func run() async throws {
        let id = UUID(uuidString: uuid)!
        try await storeOptions.withStoreForReading(failure: "cannot read the heartbeat series") { store in
            let series = try await SeriesCommandReads.found { try await SeriesReads.heartbeats(id, in: store) }
            try await HeartbeatDocument.write(series, from: store) { CLIOutput.current.write($0) }
        }
        CLIOutput.current.line("")
    }
}

enum SeriesCommandReads {
    /// What `read` finds; nothing found is a ``CommandFailure`` saying so.
    static func found<T>(_ read: () async throws -> T) async throws -> T {
        do {
            return try await read()
        } catch let error as SeriesReads.NotFound {
            throw CommandFailure(description: "the store holds \(error.description)")
        }
    }
}
