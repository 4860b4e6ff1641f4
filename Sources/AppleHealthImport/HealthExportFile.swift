public import Foundation

/// An export read without a store: what it holds, element by element.
///
/// ```swift
/// let counts = try HealthExportFile(at: URL(fileURLWithPath: "export.zip")).count()
/// print(counts.elements, "elements;", counts.topLevel["Record", default: 0], "records")
/// ```
///
/// Reads the file on the calling thread with the importer's reader (the
/// same limits and errors), and keeps nothing but the counts.
public struct HealthExportFile: Sendable {
    /// What a read found.
    public struct Counts: Sendable, Equatable {
        /// Elements of every depth, `HealthData` included.
        public var elements = 0
        /// Top-level elements by name.
        public var topLevel: [String: Int] = [:]
        /// Bytes of XML read.
        public var bytes = 0
        /// The `HealthKit Export Version` the prologue names, if any.
        public var exportVersion: Int?
    }

    private let source: ExportSource

    /// The export at `url`: an export.zip, its folder, or the XML file.
    ///
    /// - Throws: ``ImportError`` when there is no export there.
    public init(at url: URL) throws {
        source = try ExportSource.locate(url)
    }

    /// Reads the whole export and counts its elements.
    ///
    /// - Throws: ``ImportError`` for a damaged or hostile file.
    public func count() throws -> Counts {
        var counts = Counts()
        var names: [UInt16: Int] = [:]
        var table = NameTable()
        let parser = try ExportParser(batchSize: 1_000) { batch in
            for element in batch.elements where element.depth == 2 { names[element.name.rawValue, default: 0] += 1 }
            table = batch.names
            return true
        }
        try parser.parse(source) { count in
            counts.bytes += count
            return true
        }
        counts.elements = parser.elementsRead
        counts.exportVersion = parser.exportVersion
        for (name, count) in names { counts.topLevel[table[ExportName(rawValue: name)]] = count }
        return counts
    }
}
