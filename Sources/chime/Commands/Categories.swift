import ArgumentParser
import ChimeCore
import ChimeRuntime
import Foundation

extension Chime {
    struct Categories: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "categories",
            abstract: "List the categories and their actions.",
            discussion: """
                With --json, an array of categories: identifier, actions (identifier, title, \
                options, and for text input textInputButtonTitle and textInputPlaceholder), \
                minimalActions, hiddenPreviewsBodyPlaceholder, categorySummaryFormat, options.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            let categories = try options.runtime.loadConfiguration().categories
            if json {
                try printJSON(categories)
            } else {
                print(CategoryListing.text(categories), terminator: "")
            }
        }
    }
}
