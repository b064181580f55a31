import ChimeCurl
import Foundation
import Testing

@Suite("libcurl easy handles")
struct CurlEasyTests {
    @Test("a GET to a real HTTP server returns its status and body, over one reused handle")
    func get() throws {
        let server = try StaticHTTPServer()
        try "hello from the server\n".write(to: server.root.appendingPathComponent("hello.txt"), atomically: true, encoding: .utf8)
        let curl = try CurlEasy()
        let first = try curl.get("http://127.0.0.1:\(server.port)/hello.txt")
        #expect(first.code == 200)
        #expect(String(decoding: first.body, as: UTF8.self) == "hello from the server\n")
        let missing = try curl.get("http://127.0.0.1:\(server.port)/missing.txt")
        #expect(missing.code == 404)
    }

    @Test("a refused connection is an error carrying libcurl's own message")
    func refused() throws {
        // Bind and close a port so that nothing listens on it.
        let server = try StaticHTTPServer()
        let port = server.port
        _ = consume server
        let curl = try CurlEasy(timeouts: .init(connect: 2_000, total: 5_000))
        do {
            _ = try curl.get("http://127.0.0.1:\(port)/")
            Issue.record("the transfer succeeded")
        } catch let error as CurlError {
            #expect(error.code == 7) // CURLE_COULDNT_CONNECT
            #expect(error.message.contains("127.0.0.1"))
        }
    }

    @Test("the version names libcurl")
    func version() {
        #expect(Curl.version.hasPrefix("libcurl/"))
    }
}
