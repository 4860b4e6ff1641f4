/// A shape of write as clients make them, posted by wrk to the node and
/// inserted by pgbench into PostgreSQL in the same run: how many samples a
/// post, of which type, with which dates (Scripts/bench-http/post-samples.lua
/// reads the same three settings from its environment).
///
/// ```swift
/// for shape in WriteShape.all { print(shape.name, shape.wrkEnvironment) }
/// ```
struct WriteShape: Sendable {
    enum SampleType: String, Sendable {
        /// Step counts over a minute, no metadata (the bench's first row).
        case steps
        /// Heart rate at an instant with its motion context in the
        /// metadata, as the watch writes it.
        case heart
    }

    enum Dates: String, Sendable {
        /// A minute apart, each wrk thread its own timeline.
        case consecutive
        /// A second apart: a watch in a workout.
        case second
        /// Anywhere in five years: a backfill, every sample in a bucket of its own.
        case spread
    }

    let name: String
    let samplesPerPost: Int
    let type: SampleType
    let dates: Dates

    /// The four shapes of issue 54: a phone's step counts, a backfill, a
    /// watch in a workout, and single-sample posts spread over years.
    static let all: [WriteShape] = [
        WriteShape(
            name: "10 step counts a post, consecutive minutes",
            samplesPerPost: 10,
            type: .steps,
            dates: .consecutive
        ),
        WriteShape(
            name: "10 heart rates with metadata a post, spread over 5 years (a backfill)",
            samplesPerPost: 10,
            type: .heart,
            dates: .spread
        ),
        WriteShape(
            name: "10 heart rates with metadata a post, a second apart (a watch in a workout)",
            samplesPerPost: 10,
            type: .heart,
            dates: .second
        ),
        WriteShape(
            name: "1 heart rate with metadata a post, spread over 5 years",
            samplesPerPost: 1,
            type: .heart,
            dates: .spread
        ),
    ]

    /// What post-samples.lua reads.
    var wrkEnvironment: [String: String] {
        [
            "ANCHORAGE_WRK_SAMPLES": "\(samplesPerPost)",
            "ANCHORAGE_WRK_TYPE": type.rawValue,
            "ANCHORAGE_WRK_DATES": dates.rawValue,
        ]
    }

    /// One pgbench transaction of this shape: a single INSERT of
    /// ``samplesPerPost`` rows with fresh uuids (one statement, PostgreSQL's
    /// cheapest way to make them durable together).
    var pgbenchScript: String {
        let rows = (1...samplesPerPost).map { row(index: $0) }
        // pgbench draws a spread sample's offset once, for its start and end.
        let draws = dates == .spread ? (1...samplesPerPost).map { "\\set s\($0) random(0, 157680000)\n" } : []
        return draws.joined() + "INSERT INTO samples VALUES\n" + rows.joined(separator: ",\n") + ";\n"
    }

    private func row(index: Int) -> String {
        let start: String =
            switch dates {
            // now() is the transaction's start: the same for both columns.
            case .spread: "to_timestamp(1717200000 - :s\(index))"
            case .second: "now() + make_interval(secs => \(index))"
            case .consecutive: "now() + make_interval(mins => \(index))"
            }
        switch type {
        case .steps:
            return
                "(gen_random_uuid(), 'HKQuantityTypeIdentifierStepCount', \(start), \(start) + interval '1 minute', \(index), 'count', NULL)"
        case .heart:
            return
                "(gen_random_uuid(), 'HKQuantityTypeIdentifierHeartRate', \(start), \(start), 55 + floor(random() * 120), 'count/min', jsonb_build_object('HKMetadataKeyHeartRateMotionContext', floor(random() * 3)::int))"
        }
    }
}
