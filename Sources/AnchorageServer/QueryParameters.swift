import Anchorage
import Foundation
import Hummingbird

/// A request's query parameters, read with typed errors that name the
/// parameter and say what it should be.
struct QueryParameters {
    private let values: [String: [String]]

    init(_ request: Request) {
        var values: [String: [String]] = [:]
        for (key, value) in request.uri.queryParameters {
            let decoded = String(value).removingPercentEncoding ?? String(value)
            values[String(key), default: []].append(decoded)
        }
        self.values = values
    }

    /// The parameter's value, if given (the last one if repeated).
    func string(_ name: String) -> String? {
        values[name]?.last.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The parameter's value as given, empty included (`after=` is ""):
    /// `nil` only when it is absent.
    func given(_ name: String) -> String? {
        values[name]?.last
    }

    /// The value of a parameter that takes one of `choices` (or of
    /// `aliases`, accepted but not advertised), `nil` when absent. Given
    /// empty, repeated with different values, or as anything else, it is a
    /// 400 `invalidArgument` naming the choices: a client that sent
    /// `format=gpx&format=geojson` learns that one counts, not which.
    func choice(_ name: String, of choices: [String], aliases: [String] = []) throws -> String? {
        guard let given = values[name], let value = given.first else { return nil }
        let words =
            "'\(name)' is "
            + (choices.count < 2
                ? choices.joined() : choices.dropLast().joined(separator: ", ") + " or " + choices.last!)
        guard given.allSatisfy({ $0 == value }) else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "\(words), given once; it was given \(given.count) times, with different values"
            )
        }
        guard choices.contains(value) || aliases.contains(value) else {
            throw APIError(.badRequest, .invalidArgument, value.isEmpty ? "\(words); it was given empty" : words)
        }
        return value
    }

    /// The parameter's value, or a 400 naming it.
    func require(_ name: String, _ hint: String) throws -> String {
        guard let value = string(name) else {
            throw APIError(.badRequest, .invalidArgument, "the query parameter '\(name)' is required: \(hint)")
        }
        return value
    }

    /// Every comma-separated value of a parameter, repeated or not.
    func list(_ name: String) -> [String] {
        (values[name] ?? []).flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty }
    }

    /// A whole number in `range`, or `defaultValue` when absent. Given
    /// empty (`limit=`), it is no number: a 400, as the document's integer
    /// schema says.
    func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws -> Int {
        guard let text = values[name]?.last else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            let bounds =
                range.upperBound == .max
                ? "of at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw APIError(.badRequest, .invalidArgument, "'\(name)' must be a whole number \(bounds)")
        }
        return value
    }

    /// A whole number from 0 (a log position, an epoch), or nil when
    /// absent; anything else given is a 400.
    func position(_ name: String) throws -> UInt64? {
        guard let text = values[name]?.last else { return nil }
        guard let value = UInt64(text) else {
            throw APIError(.badRequest, .invalidArgument, "'\(name)' must be a whole number of at least 0")
        }
        return value
    }

    /// A parameter's value checked through a text form; its error is
    /// reported with the parameter's name.
    func parse<T>(_ name: String, _ parse: (String) throws(TextFormError) -> T) throws -> T? {
        guard let text = string(name) else { return nil }
        do {
            return try parse(text)
        } catch {
            let code: APIError.Code = name == "type" || name == "types" ? .unknownType : .invalidArgument
            throw APIError(.badRequest, code, "\(name): \(error.description)")
        }
    }

    /// A date or instant (`2024-06-01`, `2024-06-01T08:00:00Z`).
    func date(_ name: String, in zone: TimeZone) throws -> Date? {
        guard let text = string(name) else { return nil }
        guard let date = TextForms.date(text, in: zone) else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "'\(name)' must be a day such as 2024-06-01 or an instant such as 2024-06-01T08:00:00Z"
            )
        }
        return date
    }

    /// The required `type` parameter: one sample type.
    func requiredSampleType() throws -> HKSampleType {
        guard let type = try parse("type", TextForms.sampleType) else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "the query parameter 'type' is required, as in type=stepCount"
            )
        }
        return type
    }

    /// Sample types from a comma-separated list.
    func sampleTypes(_ name: String) throws -> [HKSampleType] {
        try list(name).map { text in
            do throws(TextFormError) {
                return try TextForms.sampleType(text)
            } catch {
                throw APIError(.badRequest, .unknownType, "\(name): \(error.description)")
            }
        }
    }
}
