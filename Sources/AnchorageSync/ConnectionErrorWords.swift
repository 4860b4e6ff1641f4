import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A sentence for why a connection or a TLS setup failed: what happened and
/// what to do, without library type names, build paths or error dumps.
///
/// ```swift
/// catch { throw SyncError(.unreachable, "the peer \(url) could not be reached: \(ConnectionErrorWords.describe(error))") }
/// ```
public enum ConnectionErrorWords {
    /// Why loading the certificate or key file at `path` failed, in words.
    public static func describe(_ error: any Error, loading path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "it is a directory, not a file" }
        guard FileManager.default.isReadableFile(atPath: path) else { return "permission denied" }
        return describe(error)
    }

    /// Why the connection failed, in words.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as NIOConnectionError:
            return error.connectionErrors.first.map { describe($0.error) } ?? "no address of the host could be reached"
        case let error as IOError:
            return errno(error.errnoCode)
        case let error as NIOSSLError:
            return tls(error)
        case let error as BoringSSLError:
            return tls(error)
        case let error as HTTPClientError:
            return http(error)
        case let error as ChannelError:
            if case .connectTimeout = error { return "the connection timed out; is the address right and reachable?" }
            return "the connection failed"
        default:
            return "the connection failed"
        }
    }

    private static func errno(_ code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "the connection was refused: nothing listens at that address and port"
        case ECONNRESET: "the connection was reset by the other side"
        case ETIMEDOUT: "the connection timed out; is the address right and reachable?"
        case EHOSTUNREACH, ENETUNREACH: "there is no route to that host"
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        default: String(cString: strerror(code)).lowercased()
        }
    }

    private static func http(_ error: HTTPClientError) -> String {
        switch error {
        case .remoteConnectionClosed:
            "the other side closed the connection without answering (is it an https:// address spoken to as http://?)"
        case .connectTimeout: "the connection timed out; is the address right and reachable?"
        case .deadlineExceeded, .readTimeout: "no answer in time"
        case .invalidURL, .emptyHost, .emptyScheme: "the address is not an http:// or https:// URL"
        default: "the request failed"
        }
    }

    private static func tls(_ error: NIOSSLError) -> String {
        switch error {
        case .handshakeFailed(let cause): tls(cause)
        case .failedToLoadCertificate: "the file is not a PEM certificate (-----BEGIN CERTIFICATE-----)"
        case .failedToLoadPrivateKey: "the file is not a PEM private key (-----BEGIN PRIVATE KEY-----)"
        case .uncleanShutdown: "the other side ended the TLS session abruptly"
        default: "the TLS session failed"
        }
    }

    private static func tls(_ error: BoringSSLError) -> String {
        // The library's text names the reason in capitals, among a code and a source path.
        let text = "\(error)"
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "the TLS handshake failed: the other side's certificate is not trusted "
                + "(give the certificate authority that signed it with --trust-roots)"
        }
        if text.contains("WRONG_VERSION_NUMBER") || text.contains("HTTP_REQUEST") {
            return "the TLS handshake failed: the other side does not speak https (try http://)"
        }
        return "the TLS handshake failed"
    }
}
