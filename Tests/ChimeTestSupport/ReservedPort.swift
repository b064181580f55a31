import Foundation

/// A port on 127.0.0.1 held bound but not listening: a connection to it is refused, as to
/// a relay that is down, and no other program can take the port meanwhile, until a server
/// started with it (`--port`) listens there. Both sockets set `SO_REUSEADDR`, which Linux
/// requires of each socket sharing an address, none of them listening but the last.
public final class ReservedPort: @unchecked Sendable { // immutable after init
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        (descriptor, port) = try Self.bound(sharing: true)
    }

    deinit {
        close(descriptor)
    }

    /// A TCP socket bound to an ephemeral port of 127.0.0.1, with `SO_REUSEADDR` when
    /// `sharing`, and its port.
    public static func bound(sharing: Bool) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        if sharing { setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard descriptor >= 0, bound else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "no port to bind on 127.0.0.1: \(reason)"])
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
