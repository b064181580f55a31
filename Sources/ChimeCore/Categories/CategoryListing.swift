/// The human-readable listing `chime categories` prints.
public enum CategoryListing {
    /// One block per category: its options, placeholder and summary format, then its
    /// actions numbered as the email menu numbers them, then the minimal context.
    public static func text(_ categories: [NotificationCategory]) -> String {
        categories.map(block).joined(separator: "\n")
    }

    private static func block(_ category: NotificationCategory) -> String {
        var lines: [String] = []
        let options = category.options.names
        lines.append(category.identifier + (options.isEmpty ? "" : " [\(options.joined(separator: ", "))]"))
        if let placeholder = category.hiddenPreviewsBodyPlaceholder {
            lines.append("  hidden previews: \(placeholder)")
        }
        if let summary = category.categorySummaryFormat {
            lines.append("  summary: \(summary)")
        }
        let width = category.actions.map(\.identifier.count).max() ?? 0
        for (number, action) in category.actions.enumerated() {
            var traits = action.options.names
            if let input = action.textInput {
                traits.append("text input: button \"\(input.buttonTitle)\", placeholder \"\(input.placeholder)\"")
            }
            let padded = action.identifier.padding(to: width)
            let suffix = traits.isEmpty ? "" : "  [\(traits.joined(separator: ", "))]"
            lines.append("  \(number + 1). \(padded)  \"\(action.title)\"\(suffix)")
        }
        if category.actions.isEmpty {
            lines.append("  (no actions)")
        } else {
            lines.append("  minimal: \(category.minimalActions.map(\.identifier).joined(separator: ", "))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
