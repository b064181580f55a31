internal import CChimeGMime

/// Process-wide GMime set-up, for the composer and the parser alike.
enum GMime {
    /// `g_mime_init` must run once before GMime is used; a static let runs it exactly once.
    private static let initialized: Bool = {
        g_mime_init()
        return true
    }()

    static func initialize() {
        _ = initialized
    }
}
