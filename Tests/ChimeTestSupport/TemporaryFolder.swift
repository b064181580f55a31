import Foundation

/// A folder name of its own under the temporary directory, removed with everything in it
/// when the last reference goes: a test suite's instance keeps one (a struct suite has no
/// `deinit`), so each test's files go with it. Created by the test when it needs it.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init(_ prefix: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
