import AnchorageCLI
import ArgumentParser
import Foundation

/// The `anchorage` executable: parses the arguments and runs the command.
@main
enum AnchorageMain {
    static func main() async {
        do {
            var command = try AnchorageCommand.parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            // Usage errors exit with 2, runtime errors with 1.
            let code = AnchorageCommand.exitCode(for: error)
            guard code == .validationFailure else { AnchorageCommand.exit(withError: error) }
            let message = AnchorageCommand.fullMessage(for: error)
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(2)
        }
    }
}
