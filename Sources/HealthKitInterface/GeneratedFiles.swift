public import Foundation

/// Every file generated from `Fixtures/healthkit-interface/`, keyed by its
/// path relative to the package root.
///
/// ```swift
/// let generated = try GeneratedFiles(packageRoot: root)
/// for (path, text) in generated.files { … }
/// ```
public struct GeneratedFiles: Sendable {
    public static let interfaceFolder = "Fixtures/healthkit-interface"
    public static let suiteFolder = "Tests/HealthKitConformanceTests/Generated"
    public static let tablePath = "docs/healthkit-compatibility.md"
    /// The README's coverage sentence sits between these markers.
    public static let readmePath = "README.md"
    static let coverageStart = "<!-- healthkit-coverage -->"
    static let coverageEnd = "<!-- /healthkit-coverage -->"

    public var interfaces: [InterfaceFile]
    public var files: [String: String]

    /// Reads every `*.hkinterface` under `packageRoot` and renders the
    /// suite and the table.
    public init(packageRoot: URL) throws {
        let folder = packageRoot.appendingPathComponent(Self.interfaceFolder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".hkinterface") }
            .sorted()
        var interfaces: [InterfaceFile] = []
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            interfaces.append(try InterfaceFile(parsing: text, name: String(name.dropLast(".hkinterface".count))))
        }
        try self.init(interfaces: interfaces)
        let readme = packageRoot.appendingPathComponent(Self.readmePath)
        if let text = try? String(contentsOf: readme, encoding: .utf8),
            let updated = Self.replacingCoverage(in: text, with: CompatibilityTable(files: interfaces).summary)
        {
            files[Self.readmePath] = updated
        }
    }

    /// `text` with the part between the coverage markers replaced by
    /// `summary`; `nil` when the markers are missing.
    static func replacingCoverage(in text: String, with summary: String) -> String? {
        guard let start = text.range(of: coverageStart),
            let end = text.range(of: coverageEnd, range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[..<start.upperBound]) + summary + String(text[end.lowerBound...])
    }

    public init(interfaces: [InterfaceFile]) throws {
        self.interfaces = interfaces
        var classes: Set<String> = ["NSObject", "NSPredicate"]
        for file in interfaces {
            for type in file.types where type.kind == .class { classes.insert(type.name) }
        }
        var files: [String: String] = [:]
        for file in interfaces {
            let source = try ConformanceRenderer(file: file, knownClasses: classes).render()
            files["\(Self.suiteFolder)/\(file.name).swift"] = source
        }
        files[Self.tablePath] = CompatibilityTable(files: interfaces).render()
        self.files = files
    }

    /// Paths whose committed text differs from what would be generated,
    /// and generated suite files that should no longer exist.
    public func stale(packageRoot: URL) -> [String] {
        var stale: [String] = []
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = packageRoot.appendingPathComponent(path)
            if (try? String(contentsOf: url, encoding: .utf8)) != text { stale.append(path) }
        }
        let suite = packageRoot.appendingPathComponent(Self.suiteFolder)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: suite.path)) ?? []
        where name.hasSuffix(".swift") && files["\(Self.suiteFolder)/\(name)"] == nil {
            stale.append("\(Self.suiteFolder)/\(name)")
        }
        return stale
    }

    /// Writes every generated file and removes suite files no interface
    /// file produces any more.
    public func write(packageRoot: URL) throws {
        let suite = packageRoot.appendingPathComponent(Self.suiteFolder)
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: suite.path)
        where name.hasSuffix(".swift") && files["\(Self.suiteFolder)/\(name)"] == nil {
            try FileManager.default.removeItem(at: suite.appendingPathComponent(name))
        }
        for (path, text) in files {
            try Data(text.utf8).write(to: packageRoot.appendingPathComponent(path), options: .atomic)
        }
    }
}
