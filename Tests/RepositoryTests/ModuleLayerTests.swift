import AnchorageTestRun
import Foundation
import Testing

/// The layering README.md promises, checked against Package.swift and the
/// sources: the module table lists every target, and a module imports only
/// the modules above it in the table.
@Suite("Module layers", .ownThread)
struct ModuleLayerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The first column of README.md's module table, in order.
    static func readmeModules() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let table = readme.components(separatedBy: "| Module | What it is |")[1]
            .components(separatedBy: "\n\n")[0]
        return table.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: true)
            guard let first = cells.first, first.contains("`") else { return nil }
            return first.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
    }

    /// The names of Package.swift's targets that are not tests.
    static func packageTargets() throws -> Set<String> {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var names = Set<String>()
        for kind in [".target(", ".executableTarget(", ".systemLibrary("] {
            for piece in manifest.components(separatedBy: kind).dropFirst() {
                guard let start = piece.range(of: "name: \""),
                    let end = piece[start.upperBound...].firstIndex(of: "\"")
                else { continue }
                names.insert(String(piece[start.upperBound..<end]))
            }
        }
        return names
    }

    @Test("README's module table lists exactly Package.swift's targets")
    func tableMatchesManifest() throws {
        let listed = try Self.readmeModules()
        #expect(Set(listed).count == listed.count, "a module is listed twice")
        #expect(Set(listed) == (try Self.packageTargets()))
    }

    @Test("every module imports only modules above it in the table")
    func importsGoDown() throws {
        let order = try Self.readmeModules()
        let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        var violations: [String] = []
        var checked = 0
        for module in order {
            let folder = module == "LogCrashWriter" ? "Tests/LogCrashWriter" : "Sources/\(module)"
            let directory = Self.root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
            else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                        words[..<at].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal"].contains($0) })
                    else { continue }
                    let imported = String(words[at + 1])
                    guard let importedRank = rank[imported] else { continue }
                    checked += 1
                    if importedRank >= rank[module]! {
                        violations.append("\(folder)/\(file.lastPathComponent) imports \(imported)")
                    }
                }
            }
        }
        #expect(checked > 100, "the scan found the project's imports")
        #expect(violations == [])
    }

    @Test("the model, its test helpers and its tests build without LMDB or the log")
    func modelBuildsWithoutStorage() throws {
        let storage: Set<String> = ["CLMDB", "LMDB", "AnchorageLog", "Anchorage", "AnchorageStoreTesting"]
        var scanned = 0
        let folders = ["Sources/AnchorageModel", "Sources/AnchorageTesting", "Sources/AnchorageTestRun"]
        for folder in folders + ["Tests/AnchorageModelTests"] {
            let directory = Self.root.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                scanned += 1
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ").map(String.init)
                    guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { continue }
                    #expect(!storage.contains(words[at + 1]), "\(folder)/\(file.lastPathComponent): \(line)")
                }
            }
        }
        #expect(scanned > 50)
        // And the manifest gives them nothing else to link.
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for (target, allowed) in [
            ("AnchorageModel", Set(["AnchorageCore", "CoreLocation"])), ("AnchorageTesting", ["AnchorageModel"]),
            // AnchorageTestRun (the pool probe and the test traits) links no store either.
            ("AnchorageModelTests", ["AnchorageModel", "AnchorageTesting", "AnchorageTestRun"]),
            ("AnchorageTestRun", ["CPoolProbe"]),
        ] {
            let declarations = manifest.components(separatedBy: ".target(").dropFirst()
                .flatMap { $0.components(separatedBy: ".testTarget(") }
            let declaration = try #require(declarations.first { $0.contains("name: \"\(target)\",") })
            let dependencies =
                declaration.components(separatedBy: "dependencies: [").dropFirst().first?
                .components(separatedBy: "]")[0] ?? ""
            let named = Set(
                dependencies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                    .filter { !$0.isEmpty }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            )
            #expect(named == allowed, "\(target) depends on \(named)")
        }
    }
}
