import NIOCore
import NIOHTTPTypes

/// Closes a connection that holds the server without getting anywhere, past either of two
/// deadlines, each ``limit`` long. SwiftNIO has an idle handler, which counts reads and
/// writes done, not a request's whole time nor a write waiting, and Hummingbird only its
/// idle timeout, counted from the last part of a request read: hence this small handler,
/// written here. It sits after the HTTP decoding (Hummingbird's
/// `additionalChannelHandlers`), one per connection.
///
/// - **A request body not arrived whole ``limit`` after its headers.** Every byte of a
///   body is a part: a client sending a byte every 25 s held its connection for as long
///   as its `Content-Length` lasted (a megabyte: about 300 days), and a chat callback
///   (Slack's needs only a fresh timestamp to be read, Mattermost's nothing) let anyone
///   hold thousands of them. The headers need no deadline of their own: until they are
///   whole there is no part, and the idle timeout closes the connection. Answering does
///   not stop the clock: Hummingbird reads a body out to its end before the next request,
///   so a route that answers without it (a callback refused by its headers) would
///   otherwise wait on the same trickle.
/// - **Answers not read for ``limit``.** The answers waiting for a client that stopped
///   reading fill the socket and then NIO's buffer, and Hummingbird waits for the
///   connection to take more before it answers again. A client sending pipelined requests
///   and never reading held its connection for good, and a SIGTERM with it: `chime serve`
///   finishes the requests under way before it stops, so it stopped only when systemd
///   killed it (`TimeoutStopSec`, 150 s), cutting short whatever else was under way. The
///   clock starts when the channel turns unwritable (its outbound bytes past NIO's
///   high-water mark); when it runs out, a channel unwritable then is closed, and one
///   writable again starts over the next time. It is not stopped each time the channel
///   turns writable: the kernel takes a little more now and then as its buffers grow, and
///   a clock started again each time ran on long after the client had read its last byte.
final class ConnectionDeadlines: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// As long as the idle timeout: a reminder's callback or API call is a few kilobytes,
    /// and its 1 MiB limit arrives within it at 35 KB/s; a client that reads at all takes
    /// an answer of a few hundred kilobytes within it.
    static let limit = TimeAmount.seconds(ChimeHTTPServer.idleSeconds)

    private var bodyDeadline: Scheduled<Void>?
    private var readDeadline: Scheduled<Void>?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            bodyDeadline?.cancel()
            bodyDeadline = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: Self.limit) {
                context.close(promise: nil)
            }
        case .body:
            break
        case .end:
            bodyDeadline?.cancel()
            bodyDeadline = nil
        }
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable, readDeadline == nil {
            readDeadline = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: Self.limit) { [self] in
                readDeadline = nil
                if !context.channel.isWritable { context.close(promise: nil) }
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    private func cancel() {
        bodyDeadline?.cancel()
        readDeadline?.cancel()
        (bodyDeadline, readDeadline) = (nil, nil)
    }
}

@available(*, unavailable)
extension ConnectionDeadlines: Sendable {}
