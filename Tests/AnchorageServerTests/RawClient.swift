import AnchorageTesting
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A raw TCP client for the slow and malformed requests an HTTP client
/// never sends: it writes exactly the bytes given and records what comes
/// back, and when the node closes the connection.
final class RawClient: Sendable {
    private let channel: any Channel
    private let recorder: Recorder

    private init(channel: any Channel, recorder: Recorder) {
        self.channel = channel
        self.recorder = recorder
    }

    /// Connects to a node on loopback.
    static func connect(port: Int) async throws -> RawClient {
        let recorder = Recorder()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RecordingHandler(recorder: recorder))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawClient(channel: channel, recorder: recorder)
    }

    /// Sends `text` as it is; a connection the node closed ignores it.
    func send(_ text: String) async {
        try? await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Everything received so far.
    var received: String { recorder.state.withLock { $0.received } }

    /// Whether the node closed the connection.
    var isClosed: Bool { recorder.state.withLock { $0.closed } }

    /// The first response's status code, once its head has arrived.
    var status: Int? {
        let text = received
        guard text.hasPrefix("HTTP/1.1 "), text.count >= 12 else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }

    /// The first response's body, once it is complete.
    var body: String? {
        let text = received
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<split.lowerBound].lowercased()
        let rest = String(text[split.upperBound...])
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return isClosed ? rest : nil }
        return rest.utf8.count >= length ? String(decoding: Array(rest.utf8).prefix(length), as: UTF8.self) : nil
    }

    /// The first response's head, lowercased, once it has arrived.
    var head: String? {
        let text = received
        return text.range(of: "\r\n\r\n").map { text[..<$0.lowerBound].lowercased() }
    }

    /// Waits (up to 60 s of real time) until `condition` holds; throws
    /// naming `what` and what was received when it does not.
    func waitUntil(_ what: String, _ condition: (RawClient) -> Bool) async throws {
        do {
            try await AnchorageTesting.waitUntil(what) { condition(self) }
        } catch {
            throw WaitTimeout(description: "\(error); received: \(received.prefix(2_000))")
        }
    }

    /// Closes the connection from this side.
    func close() async {
        try? await channel.close()
    }

    final class Recorder: Sendable {
        struct State {
            var received = ""
            var closed = false
        }

        let state = Mutex(State())
    }

    private final class RecordingHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        let recorder: Recorder

        init(recorder: Recorder) {
            self.recorder = recorder
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            recorder.state.withLock { $0.received += String(buffer: buffer) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            recorder.state.withLock { $0.closed = true }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            // A reset is a close too.
            context.close(promise: nil)
        }
    }
}
