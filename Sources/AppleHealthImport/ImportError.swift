/// Why an import stopped: what was wrong, in words, and where.
///
/// Messages name the line and column of the file (or the zip entry) and
/// what to do; they never quote the file's values, which are health data.
///
/// ```swift
/// do {
///     _ = try await HealthExportImporter(store: store).importExport(at: url)
/// } catch let error as ImportError where error.code == .malformed {
///     print(error.message, "at line", error.line ?? 0)
/// }
/// ```
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure, to match on.
    public enum Code: Sendable, Hashable {
        /// The file, folder or zip cannot be opened or read.
        case unreadable
        /// The file is not well-formed XML: cut short, damaged, or not XML.
        case malformed
        /// The file is XML but not a Health export (`export_cda.xml`, an
        /// unrelated document), or a zip or folder holds no export.
        case notAnExport
        /// A part of the file exceeds a limit no real export comes near:
        /// a name, a value, an element with too many children, a zip entry
        /// that inflates far beyond its size.
        case tooLarge
    }

    /// What kind of failure.
    public let code: Code
    /// The explanation, for a person.
    public let message: String
    /// The line of the XML data where the failure was found, from 1.
    public let line: Int?
    /// The column (in bytes) of that line, from 1.
    public let column: Int?
    /// The zip entry being read, for an import from a zip.
    public let entry: String?

    init(_ code: Code, _ message: String, line: Int? = nil, column: Int? = nil, entry: String? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.entry = entry
    }

    /// The same error, said to have happened inside zip entry `entry`.
    func inEntry(_ entry: String) -> ImportError {
        ImportError(code, message, line: line, column: column, entry: entry)
    }

    public var description: String {
        var place: [String] = []
        if let entry { place.append("in \(entry)") }
        if let line { place.append("at line \(line)" + (column.map { ", column \($0)" } ?? "")) }
        return place.isEmpty ? message : message + " (" + place.joined(separator: " ") + ")"
    }
}
