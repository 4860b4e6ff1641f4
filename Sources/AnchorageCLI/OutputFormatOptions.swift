import ArgumentParser

/// `--format` of the commands that print samples or changes.
struct DataFormatOption: ParsableArguments {
    @Option(help: "ndjson (default), json, csv or table.")
    var format: DataFormat = .ndjson
}

/// `--format` of the commands that print a table of values.
struct TableFormatOption: ParsableArguments {
    @Option(help: "table, json or csv.")
    var format: TableFormat = .table
}

/// The forms of a table of values: aligned columns, JSON or CSV.
enum TableFormat: String, ExpressibleByArgument {
    case table, json, csv
}
