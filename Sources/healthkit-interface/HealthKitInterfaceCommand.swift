import ArgumentParser
import Foundation
import HealthKitInterface

/// `swift run healthkit-interface`: writes the HealthKit conformance suite and
/// docs/healthkit-compatibility.md from Fixtures/healthkit-interface/, or,
/// with `--check`, says which of them are stale.
@main
struct HealthKitInterfaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthkit-interface",
        abstract:
            "Generates the HealthKit conformance suite and compatibility table from Fixtures/healthkit-interface/."
    )

    @Option(help: "The package's root folder.")
    var packageRoot: String = FileManager.default.currentDirectoryPath

    @Flag(help: "Write nothing; exit 1 if any generated file is stale.")
    var check = false

    func run() throws {
        let root = URL(fileURLWithPath: packageRoot)
        let generated = try GeneratedFiles(packageRoot: root)
        if check {
            let stale = generated.stale(packageRoot: root)
            guard stale.isEmpty else {
                print("stale: \(stale.joined(separator: ", ")); run Scripts/generate-healthkit-conformance")
                throw ExitCode.failure
            }
            print("up to date: \(CompatibilityTable(files: generated.interfaces).summary)")
            return
        }
        try generated.write(packageRoot: root)
        print("wrote \(generated.files.count) files: \(CompatibilityTable(files: generated.interfaces).summary)")
    }
}
