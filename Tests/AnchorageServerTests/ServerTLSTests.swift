import Anchorage
import AnchorageLog
import AnchorageServer
import AnchorageSync
import Crypto
import Foundation
import SwiftASN1
import Testing
import X509

/// HTTPS: a node serving with a certificate and key, a replicator that
/// trusts that certificate, and one that does not.
@Suite("Node over HTTPS")
struct ServerTLSTests {
    /// A self-signed certificate for 127.0.0.1 and its key, as PEM files.
    static func makeCertificate(in directory: URL) throws -> (certificate: String, key: String) {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Anchorage test node") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3_600),
            notValidAfter: now.addingTimeInterval(3_600),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: .init(key)
        )
        let certificatePath = directory.appendingPathComponent("node.pem").path
        let keyPath = directory.appendingPathComponent("node-key.pem").path
        try certificate.serializeAsPEM().pemString.write(toFile: certificatePath, atomically: true, encoding: .utf8)
        try key.pemRepresentation.write(toFile: keyPath, atomically: true, encoding: .utf8)
        return (certificatePath, keyPath)
    }

    @Test("A node serves HTTPS with --tls-certificate and --tls-key; peers trusting its certificate replicate")
    func replicateOverTLS() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-tls-\(UUID())")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let files = try Self.makeCertificate(in: base)
        var configuration = NodeConfiguration()
        configuration.port = 0
        configuration.tls = TLSFiles(certificateChain: files.certificate, privateKey: files.key)
        var storeConfiguration = HKHealthStore.Configuration()
        storeConfiguration.log.durability = .none
        let directory = base.appendingPathComponent("a")
        let node = try await AnchorageNode(
            directory: directory,
            configuration: configuration,
            storeConfiguration: storeConfiguration
        )
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let serving = Task { try await node.run { continuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let owner = HKHealthStore(directory: directory)
        try await owner.save(
            HKQuantitySample(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .count(), doubleValue: 42),
                start: Date(timeIntervalSince1970: 1_717_200_000),
                end: Date(timeIntervalSince1970: 1_717_200_060)
            )
        )

        let url = URL(string: "https://127.0.0.1:\(port)")!
        let replica = HKHealthStore(directory: base.appendingPathComponent("b"), configuration: storeConfiguration)
        let trusting = try HTTPPeerTransport(url: url, token: nil, trustRoots: files.certificate)
        let pulled = try await PeerReplicator(log: try replica.eventLog(), peer: trusting).sync(.pull).pulled
        #expect(pulled?.applied == 1)

        // Without the certificate among its roots, the peer is refused, in words: no
        // TLS library dump, no build path.
        let distrusting = try HTTPPeerTransport(url: url, token: nil)
        let untrusted = await #expect(throws: SyncError.self) {
            try await PeerReplicator(log: try replica.eventLog(), peer: distrusting).sync(.pull)
        }
        let words = untrusted.map(\.message) ?? ""
        #expect(words.contains("certificate is not trusted") && words.contains("--trust-roots"), "\(words)")
        #expect(!words.contains("BoringSSL") && !words.contains(".build") && !words.contains("error:"), "\(words)")
        // Plain HTTP to the HTTPS port does not work either.
        let plain = try HTTPPeerTransport(url: URL(string: "http://127.0.0.1:\(port)")!, token: nil)
        let wrongScheme = await #expect(throws: SyncError.self) {
            try await PeerReplicator(log: try replica.eventLog(), peer: plain).sync(.pull)
        }
        let wrongWords = wrongScheme.map(\.message) ?? ""
        // The TLS server drops a plain request: closed, or reset when the close beats the request's bytes (under load).
        #expect(
            (wrongWords.contains("closed the connection") || wrongWords.contains("connection was reset"))
                && !wrongWords.contains("HTTPClientError"),
            "\(wrongWords)"
        )
        for transport in [trusting, distrusting, plain] { try await transport.shutdown() }
        await replica.close()
        await owner.close()
        await node.stop()
        _ = try? await serving.value
    }

    @Test("Unreadable certificate files are a clear configuration error")
    func missingFiles() async throws {
        var configuration = NodeConfiguration()
        configuration.port = 0
        configuration.tls = TLSFiles(certificateChain: "/nonexistent/node.pem", privateKey: "/nonexistent/key.pem")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-tls-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            _ = try await AnchorageNode(directory: directory, configuration: configuration)
            Issue.record("a node started without its certificate")
        } catch let error as NodeConfigurationError {
            #expect(error.description.contains("cannot load the TLS certificate /nonexistent/node.pem: no such file"))
        }
    }
}
