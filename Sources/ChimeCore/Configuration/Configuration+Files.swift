import Foundation

extension Configuration {
    /// What the files it names hold wrong (a channel's `caFile` missing, unreadable, or
    /// without a certificate), said where they are named: errors for `chime check`, which
    /// then exits 65. The files are read when this is asked, not when the configuration
    /// is loaded: every other command loads it all the same, as a CA file provisioned
    /// after the configuration, or being replaced, fails only the deliveries on its
    /// channel, and those only while it is.
    public var fileProblems: [Diagnostic] {
        channels.compactMap { channel in
            guard let path = channel.caFile, let problem = Self.caFileProblem(path) else { return nil }
            return Diagnostic(.error, at: caFileLocations[channel.id] ?? SourceLocation(file: path), problem)
        }
    }

    /// The largest `caFile` read: a system's whole bundle is about 200 KB.
    static let largestCAFile = 16 << 20

    /// What is wrong with the `caFile` at `path`, nil when it holds a PEM certificate.
    private static func caFileProblem(_ path: String) -> String? {
        do {
            let bytes = Data(try BoundedFile.read(path, atMost: largestCAFile))
            // OpenSSL, which libcurl verifies with, reads each of these headers.
            let headers = ["CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CERTIFICATE"].map { Data("-----BEGIN \($0)-----".utf8) }
            return headers.contains { bytes.range(of: $0) != nil } ? nil : "caFile \(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        } catch {
            return "caFile \(path): \(error.reason)"
        }
    }
}
