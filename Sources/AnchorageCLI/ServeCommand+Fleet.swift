import AnchorageServer
import ArgumentParser
import Foundation
import Logging

extension ServeCommand {
    /// `--fleet`: a node of a fleet, its copies under `root`.
    func serveFleet(
        root: String,
        configuration: NodeConfiguration,
        fleet: FleetConfiguration,
        logger: Logger
    ) async throws {
        let node: FleetNode
        do {
            node = try FleetNode(
                root: URL(fileURLWithPath: root, isDirectory: true),
                configuration: configuration,
                fleet: fleet,
                logger: logger
            )
        } catch let error as NodeConfigurationError {
            throw ValidationError(error.description)
        }
        let output = CLIOutput.current
        let (host, id) = (host, fleet.nodeID)
        do {
            try await node.run { port in
                output.status("anchorage: fleet node \(id) serving the copies in \(root) on http://\(host):\(port)\n")
            }
        } catch {
            throw CommandFailure(description: "the fleet node stopped: \(ErrorWords.describe(error))")
        }
        output.status("anchorage: stopped\n")
    }
}
