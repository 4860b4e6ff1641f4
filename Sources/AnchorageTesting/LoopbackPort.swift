import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A loopback port nothing listens on, for a child process to bind.
///
/// It comes from below the range the kernel hands out as the local ports
/// of outgoing connections (32768 and up on Linux by default): a port from
/// that range (what binding port 0 gives) may be taken by any client
/// connection — a fleet's nodes keep many — before the child binds it. The
/// ports handed out go round 10000–19999 from a random start and are never
/// the same twice in a process (until it has used them all), so tests
/// running at once cannot choose the same port; `Scripts/docs-test` picks
/// from 20000 up. Each is checked free by binding it; another process may
/// still take it first, and a caller that loses that race starts again
/// with a new one.
///
/// ```swift
/// let port = try freeLoopbackPort()
/// ```
public func freeLoopbackPort() throws -> Int {
    for _ in 0..<PortCursor.range.count {
        let port = PortCursor.next()
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(descriptor) }
        if (try? bindLoopback(descriptor, port: port)) != nil { return port }
    }
    throw POSIXError(.EADDRINUSE)
}

/// The next candidate port of ``freeLoopbackPort()``, shared by the whole
/// process.
private enum PortCursor {
    static let range = 10_000..<20_000
    static let cursor = Atomic<Int>(Int.random(in: 0..<range.count))

    static func next() -> Int {
        let step = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
        return range.lowerBound + (step % range.count + range.count) % range.count
    }
}

/// Binds a TCP socket to `port` of 127.0.0.1 (0: any free port); returns
/// the port bound.
func bindLoopback(_ descriptor: Int32, port: Int = 0) throws -> Int {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A loopback listener that lets connections in (the kernel completes them)
/// and never reads or answers: a server that hangs. Close it when done.
///
/// ```swift
/// let silent = try SilentListener()
/// defer { silent.close() }
/// // a request to http://127.0.0.1:\(silent.port) gets no answer
/// ```
public final class SilentListener: Sendable {
    private let descriptor: Int32
    public let port: Int

    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        self.descriptor = descriptor
        do {
            port = try bindLoopback(descriptor)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        guard listen(descriptor, 16) == 0 else {
            Glibc.close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
    }

    public func close() { _ = Glibc.close(descriptor) }
}
