public import Foundation
import Synchronization

/// SoftHSM2, a real PKCS#11 token, for tests: its configuration and token
/// directory in a temporary directory of this test process (the module
/// reads SOFTHSM2_CONF once, when first initialised), and a token per test,
/// initialised by softhsm2-util before the module is first loaded.
public enum SoftHSM {
    /// Where Debian's softhsm2 installs the module.
    public static let module = "/usr/lib/softhsm/libsofthsm2.so"
    public static let userPIN = "246810"

    /// The process's configuration: made once.
    public static let directory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-softhsm-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try! FileManager.default.createDirectory(
            at: directory.appendingPathComponent("tokens"),
            withIntermediateDirectories: true
        )
        let configuration = directory.appendingPathComponent("softhsm2.conf")
        try! "directories.tokendir = \(directory.path)/tokens\nobjectstore.backend = file\nlog.level = ERROR\n"
            .write(to: configuration, atomically: true, encoding: .utf8)
        setenv("SOFTHSM2_CONF", configuration.path, 1)
        try! "\(userPIN)\n".write(to: directory.appendingPathComponent("pin"), atomically: true, encoding: .utf8)
        return directory
    }()

    public static var pinFile: URL { directory.appendingPathComponent("pin") }

    /// Tokens initialised before the module is first loaded: SoftHSM2 finds
    /// the tokens of its directory when initialised, not later.
    private static let tokens: Mutex<[String]> = {
        _ = directory
        return Mutex((1...16).map { try! initialise(label: "t\(getpid())-\($0)") })
    }()

    /// A token no other test uses.
    public static func makeToken() throws -> String {
        guard let label = tokens.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
            throw Failure(description: "the test process used all of its SoftHSM tokens; make more")
        }
        return label
    }

    private static func initialise(label: String) throws -> String {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/softhsm2-util")
        process.arguments = ["--init-token", "--free", "--label", label, "--pin", userPIN, "--so-pin", "13579"]
        var environment = ProcessInfo.processInfo.environment
        environment["SOFTHSM2_CONF"] = directory.appendingPathComponent("softhsm2.conf").path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "softhsm2-util could not initialise a token")
        }
        return label
    }

    /// What goes wrong setting SoftHSM2 up.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }
}
