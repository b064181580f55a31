import ArgumentParser

extension Chime {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate the configuration; print a summary, or every error (exit 65).",
            discussion: "Errors are printed as path:line:col: error: message. A missing file exits 66."
        )

        @OptionGroup var options: GlobalOptions

        func run() throws {
            let configuration = try loadConfiguration(options)
            print("ok: \(configuration.summary)")
        }
    }
}
