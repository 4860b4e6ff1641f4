import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a fleet node keeps in its directory about its membership:
/// `fleet.lock`, locked (`flock`) while a process serves the directory —
/// two processes on one directory would be one node twice — and
/// `fleet-lease`, the lease its run holds, so that the node restarted within
/// its TTL takes that lease back and rejoins at once
/// (``NodeMembership/join(adopting:)``) instead of waiting for it to end.
///
/// ```swift
/// let file = try FleetLeaseFile(root: root)     // throws while another process serves root
/// try await membership.join(adopting: file.previous)
/// ```
final class FleetLeaseFile: Sendable {
    let root: URL
    private let descriptor: Int32

    /// Takes the directory's lock.
    ///
    /// - Throws: ``NodeConfigurationError`` when another process serves the
    ///   directory, or it cannot be written.
    init(root: URL) throws {
        self.root = root
        let path = root.appendingPathComponent("fleet.lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw NodeConfigurationError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw NodeConfigurationError(
                "another process serves the fleet node's directory \(root.path); stop it first"
            )
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    private var leaseURL: URL { root.appendingPathComponent("fleet-lease") }

    /// The lease the node's last run held, if it wrote one.
    var previous: Int64? {
        (try? String(contentsOf: leaseURL, encoding: .utf8)).flatMap {
            Int64($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Keeps `lease` for the next run (written whole or not at all).
    func keep(_ lease: Int64) {
        try? Data("\(lease)\n".utf8).write(to: leaseURL, options: .atomic)
    }
}
