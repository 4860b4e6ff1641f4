import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Watches every request body on a connection, whatever route reads it:
/// a body that misses its ``RequestBodyPace`` fails with
/// ``RequestBodyTimeout``, which the route answers with `408
/// requestTimeout`; then the connection is closed. A response that says
/// `Connection: close` (a body refused before it was read, broken framing)
/// closes the connection once written, so an unread body is never drained.
///
/// It sits after the HTTP codec, one per connection.
final class RequestBodyGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let pace: RequestBodyPace
    /// When the head of the request whose body is arriving came; nil
    /// between bodies.
    private var start: NIODeadline?
    private var received = 0
    private var timer: Scheduled<Void>?
    /// Whether a body was cut off: its answer closes the connection.
    private var cutOff = false
    /// Whether the response being written closes the connection.
    private var closesAfterResponse = false

    init(pace: RequestBodyPace) {
        self.pace = pace
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            start = .now()
            received = 0
            schedule(context)
        case .body(let buffer):
            received += buffer.readableBytes
        case .end:
            stop()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where response.status.kind != .informational:
            guard cutOff || response.headerFields[.connection] == "close" else { break }
            closesAfterResponse = true
            response.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(response)), promise: promise)
            return
        case .end where closesAfterResponse:
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        default:
            break
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        stop()
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    /// Sets the timer for the moment the body arriving now would be cut
    /// off; when it fires, the body is cut off, or, if more of it came in
    /// the meantime, the timer is set again.
    private func schedule(_ context: ChannelHandlerContext) {
        timer?.cancel()
        guard let start else { return }
        let (deadline, cause) = pace.cutOff(start: start, received: received)
        guard deadline > .now() else {
            stop()
            cutOff = true
            context.fireErrorCaught(RequestBodyTimeout(cause: cause, pace: pace))
            return
        }
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            schedule(context)
        }
    }

    private func stop() {
        start = nil
        timer?.cancel()
        timer = nil
    }
}
