import AnchorageCLI
import ArgumentParser
import Foundation

/// The `anchorage` executable: parses the arguments and runs the command.
@main
enum AnchorageMain {
    static func main() async {
        var parsed: (any ParsableCommand.Type)?
        do {
            var command = try AnchorageCommand.parseAsRoot()
            parsed = type(of: command)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            // Usage errors exit with 2, with the usage of their command; runtime errors with 1.
            let code = AnchorageCommand.exitCode(for: error)
            guard code == .validationFailure else { AnchorageCommand.exit(withError: error) }
            let message = AnchorageCommand.usageMessage(for: error, from: parsed)
            FileHandle.standardError.write(Data((message + "\n").utf8))
            exit(2)
        }
    }
}
