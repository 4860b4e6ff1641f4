import Anchorage
import Foundation

extension StatisticsRequest {
    /// Reads a request's text fields one by one, each mistake a
    /// ``StatisticsRequestError`` naming the field in the front end's spelling.
    struct FieldReader {
        let text: Text
        let spelling: Spelling

        func value(_ field: Field) -> String? { text.value(field) }

        /// Every value is at most ``StatisticsRequest/maximumValueBytes``.
        func checkLengths() throws(StatisticsRequestError) {
            for field in Field.allCases {
                let values = field == .sources ? text.sources : value(field).map { [$0] } ?? []
                if values.contains(where: { $0.utf8.count > StatisticsRequest.maximumValueBytes }) {
                    throw StatisticsRequestError(
                        .invalidArgument,
                        field,
                        "\(spelling.quoted(field)) is longer than \(StatisticsRequest.maximumValueBytes) bytes"
                    )
                }
            }
        }

        /// A field's value through a text form, `nil` when absent.
        func parse<T>(
            _ field: Field,
            _ parse: (String) throws(TextFormError) -> T
        ) throws(StatisticsRequestError)
            -> T?
        {
            guard let text = value(field) else { return nil }
            do {
                return try parse(text)
            } catch {
                throw StatisticsRequestError(.invalidArgument, field, "\(spelling.name(field)): \(error.description)")
            }
        }

        /// The required quantity type.
        func quantityType() throws(StatisticsRequestError) -> HKQuantityType {
            guard let text = value(.type) else {
                throw StatisticsRequestError(
                    .invalidArgument,
                    .type,
                    "\(spelling.quoted(.type)) is required, as in \(spelling.example(.type, "stepCount"))"
                )
            }
            let sampleType: HKSampleType
            do {
                sampleType = try TextForms.sampleType(text)
            } catch {
                throw StatisticsRequestError(.unknownType, .type, "\(spelling.name(.type)): \(error.description)")
            }
            guard let type = sampleType as? HKQuantityType else {
                throw StatisticsRequestError(
                    .invalidArgument,
                    .type,
                    "\(spelling.name(.type)): '\(text.prefix(80))' is not a quantity type; "
                        + "statistics need one such as stepCount"
                )
            }
            return type
        }

        /// The options given (`nil`: the default, `sum`) when they suit
        /// `type` (ST-1, the model's rule), else a refusal naming options and
        /// types as the front end reads them (`min`, `stepCount`), not as
        /// Swift does (`discreteMin`).
        func suited(
            _ given: HKStatisticsOptions?,
            for type: HKQuantityType
        ) throws(StatisticsRequestError) -> HKStatisticsOptions {
            let options = given ?? .cumulativeSum
            let unsuited = TextForms.statisticsOptionNames(options.unsuited(to: type))
            guard !unsuited.isEmpty else { return options }
            let others =
                type.aggregationStyle == .cumulative
                ? "discrete types such as heartRate" : "cumulative types such as stepCount"
            let takes = TextForms.statisticsOptionNames(
                HKStatisticsOptions.suited(to: type).union([.mostRecent, .duration])
            )
            throw StatisticsRequestError(
                .invalidArgument,
                .options,
                "\(spelling.name(.options)): \(Self.list(unsuited, "and"))\(given == nil ? " (the default)" : "") "
                    + "\(unsuited.count == 1 ? "is" : "are") for "
                    + "\(others); \(TextForms.shortName(of: type.identifier)) takes \(Self.list(takes, "or")) (ST-1)"
            )
        }

        /// `a`, `a and b`, `a, b and c`.
        private static func list(_ words: [String], _ conjunction: String) -> String {
            words.count < 2
                ? words.joined() : words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
        }

        /// At most 100 bundle identifiers, none empty or over 255 bytes.
        func sources() throws(StatisticsRequestError) -> [String] {
            let sources = text.sources
            guard sources.count <= 100, sources.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 255 }) else {
                throw StatisticsRequestError(
                    .invalidArgument,
                    .sources,
                    "\(spelling.name(.sources)): 1 to 100 bundle identifiers of at most 255 bytes each"
                )
            }
            return sources
        }

        /// A day or an instant in `zone`, `nil` when absent.
        func date(_ field: Field, in zone: TimeZone) throws(StatisticsRequestError) -> Date? {
            guard let text = value(field) else { return nil }
            guard let date = TextForms.date(text, in: zone) else {
                throw StatisticsRequestError(
                    .invalidArgument,
                    field,
                    "\(spelling.quoted(field)) must be a day such as 2024-06-01 or an instant such as 2024-06-01T08:00:00Z"
                )
            }
            return date
        }

        /// The required `from` and `to`, in order.
        func range(in zone: TimeZone) throws(StatisticsRequestError) -> (Date, Date) {
            guard value(.from) != nil, value(.to) != nil else {
                throw StatisticsRequestError(
                    .invalidArgument,
                    value(.from) == nil ? .from : .to,
                    "\(spelling.quoted(.from)) and \(spelling.quoted(.to)) are required, as in "
                        + spelling.example(.from, "2024-06-01") + spelling.joiner + spelling.example(.to, "2024-06-07")
                )
            }
            guard let start = try date(.from, in: zone), let end = try date(.to, in: zone) else {
                preconditionFailure("both dates were checked to be present")
            }
            guard start <= end else {
                throw StatisticsRequestError(
                    .invalidArgument,
                    .from,
                    "\(spelling.quoted(.from)) is after \(spelling.quoted(.to))"
                )
            }
            return (start, end)
        }

        /// The unit asked for, or the one people read for `type`.
        func unit(for type: HKQuantityType) throws(StatisticsRequestError) -> HKUnit {
            guard let text = value(.unit) else { return TextForms.displayUnit(of: type) }
            let unit: HKUnit
            do {
                unit = try HKUnit.parse(text)
            } catch {
                throw StatisticsRequestError(
                    .invalidArgument,
                    .unit,
                    "\(spelling.name(.unit)): \(error.messageWithRule)"
                )
            }
            guard type.is(compatibleWith: unit) else {
                throw StatisticsRequestError(
                    .incompatibleUnit,
                    .unit,
                    "\(spelling.name(.unit)): \(type.identifier) cannot be expressed in \(unit.unitString) (UNIT-18)"
                )
            }
            return unit
        }
    }
}
