import Foundation

/// Markdown text as Discord and Mattermost show it, as far as Chime's escapes go: each
/// backslash-escaped ASCII punctuation mark shown as the mark itself (CommonMark's rule),
/// so a test asserts what the person reads, `(Milk, eggs…)`, not `\(Milk, eggs…\)`; an
/// inline link `[label](url)` shown as its label.
public func markdownShown(_ text: String) -> String {
    text.replacingOccurrences(of: #"(?<!\\)\[((?:\\.|[^\]\\])*)\]\([^()\s]*\)"#, with: "$1", options: .regularExpression)
        .replacingOccurrences(of: #"\\([!-/:-@\[-`{-~])"#, with: "$1", options: .regularExpression)
}
