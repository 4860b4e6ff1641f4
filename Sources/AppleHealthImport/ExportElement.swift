/// One top-level element of an export, with what is nested in it: its
/// metadata entries, a correlation's records, a workout's events and
/// statistics.
struct ExportElement: Sendable {
    var name: String
    var attributes: [String: String]
    var metadata: [(key: String, value: String)] = []
    var records: [ExportElement] = []
    var events: [[String: String]] = []
    var statistics: [[String: String]] = []
}
