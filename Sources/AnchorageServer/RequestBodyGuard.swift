import Anchorage
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
    /// The node's clock: the body's timer waits on it, so tests move it by
    /// hand instead of waiting.
    private let clock: StoreClock
    /// When the head of the request whose body is arriving came (a reading
    /// of `clock`); nil between bodies.
    private var start: Duration?
    private var received = 0
    /// The task waiting for the moment the body would be cut off; its
    /// number tells a timer that fired from one stopped since.
    private var timer: Task<Void, Never>?
    private var timerNumber: UInt64 = 0
    /// Whether a body was cut off: its answer closes the connection.
    private var cutOff = false
    /// Whether the response being written closes the connection.
    private var closesAfterResponse = false

    init(pace: RequestBodyPace, clock: StoreClock) {
        self.pace = pace
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            start = clock.now()
            received = 0
        case .body(let buffer):
            received += buffer.readableBytes
        case .end:
            stop()
        }
        context.fireChannelRead(data)
    }

    /// A body still arriving once a read is done gets its timer: a request
    /// that arrives whole in one read (every GET, most small bodies) never
    /// sets one.
    func channelReadComplete(context: ChannelHandlerContext) {
        if start != nil && timer == nil { schedule(context) }
        context.fireChannelReadComplete()
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
        timer = nil
        guard let start else { return }
        let (deadline, cause) = pace.cutOff(start: start, received: received)
        let now = clock.now()
        guard deadline > now else {
            stop()
            cutOff = true
            context.fireErrorCaught(RequestBodyTimeout(cause: cause, pace: pace))
            return
        }
        timerNumber &+= 1
        let number = timerNumber
        let loop = context.eventLoop
        let target = NIOLoopBound((self, context), eventLoop: loop)
        let clock = clock
        timer = Task {
            do { try await clock.sleep(deadline - now) } catch { return }
            loop.execute {
                let (handler, context) = target.value
                handler.fire(number, context)
            }
        }
    }

    private func fire(_ number: UInt64, _ context: ChannelHandlerContext) {
        guard number == timerNumber, timer != nil else { return }
        timer = nil
        schedule(context)
    }

    private func stop() {
        start = nil
        timer?.cancel()
        timer = nil
    }
}
