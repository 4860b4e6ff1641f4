import AnchorageTestRun
import Foundation
import HealthKitInterface
import Testing

@Suite("HealthKit's interface files and what is generated from them", .ownThread)
struct GeneratedFilesTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the conformance suite and docs/healthkit-compatibility.md are what the interface files generate")
    func noDrift() throws {
        let generated = try GeneratedFiles(packageRoot: Self.packageRoot)
        #expect(!generated.interfaces.isEmpty)
        let stale = generated.stale(packageRoot: Self.packageRoot)
        #expect(stale.isEmpty, "stale: \(stale); run Scripts/generate-healthkit-conformance")
    }

    @Test("the README states the compatibility table's counts")
    func readmeCounts() throws {
        let generated = try GeneratedFiles(packageRoot: Self.packageRoot)
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let summary = CompatibilityTable(files: generated.interfaces).summary
        #expect(
            readme.contains("<!-- healthkit-coverage -->\(summary)<!-- /healthkit-coverage -->"),
            "README.md should say: \(summary)"
        )
        #expect(readme.contains("docs/healthkit-compatibility.md"))
    }

    @Test("every interface member parses, each type is declared once, and no member is listed twice")
    func wellFormed() throws {
        let generated = try GeneratedFiles(packageRoot: Self.packageRoot)
        var typeNames: Set<String> = []
        for file in generated.interfaces {
            for type in file.types where type.kind != .global {
                #expect(typeNames.insert(type.name).inserted, "\(type.name) is declared twice")
                var seen: Set<String> = []
                for member in type.members {
                    let declaration = try Declaration(parsing: member.declaration)
                    let key = "\(declaration.isTypeMember) \(member.declaration)"
                    #expect(seen.insert(key).inserted, "\(file.name):\(member.line) repeats \(member.declaration)")
                }
            }
        }
    }
}
