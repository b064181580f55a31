import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request body has not arrived whole ``limit`` after its
/// headers. Hummingbird's idle timeout counts from the last part of a request read, and
/// every byte of a body is a part: a client sending a byte every 25 s held its
/// connection for as long as its `Content-Length` lasted (a megabyte: about 300 days),
/// and a chat callback (Slack's needs only a fresh timestamp to be read, Mattermost's
/// nothing) let anyone hold thousands of them. The headers need no deadline of their own:
/// until they are whole there is no part, and the idle timeout closes the connection.
///
/// SwiftNIO has an idle handler, not one for a request's whole time, and Hummingbird
/// only the idle timeout: hence this small one, written here. It sits after the HTTP
/// decoding (Hummingbird's `additionalChannelHandlers`), one per connection.
/// Answering does not stop the clock: Hummingbird reads a body out to its end before the
/// next request, so a route that answers without it (a callback refused by its headers)
/// would otherwise wait on the same trickle.
final class RequestBodyDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// As long as the idle timeout: a reminder's callback or API call is a few kilobytes,
    /// and its 1 MiB limit arrives within it at 35 KB/s.
    static let limit = TimeAmount.seconds(ChimeHTTPServer.idleSeconds)

    private var closing: Scheduled<Void>?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            cancel()
            closing = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: Self.limit) {
                context.close(promise: nil)
            }
        case .body:
            break
        case .end:
            cancel()
        }
        context.fireChannelRead(data)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    private func cancel() {
        closing?.cancel()
        closing = nil
    }
}

@available(*, unavailable)
extension RequestBodyDeadline: Sendable {}
