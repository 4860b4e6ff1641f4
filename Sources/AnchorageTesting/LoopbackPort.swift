import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback port nothing listens on: bound to learn it, then closed (so
/// another process may take it first; a caller that loses the race starts
/// again with a new one).
///
/// ```swift
/// let port = try freeLoopbackPort()
/// ```
public func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
    defer { close(descriptor) }
    return try bindLoopback(descriptor)
}

/// Binds a TCP socket to a free port of 127.0.0.1; returns the port.
func bindLoopback(_ descriptor: Int32) throws -> Int {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
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
