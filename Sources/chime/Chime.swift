import ArgumentParser
import ChimeCurl
import ChimeXML

/// `chime`: the command line. Each command parses its arguments and delegates to the
/// libraries; exit codes follow sysexits (see CONTRACT.md).
@main
struct Chime: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chime",
        abstract: "Reminders with actions, delivered by email and chat, answered by reply.",
        discussion: """
            Exit codes (sysexits): 0 ok, 64 usage, 65 bad input or configuration, \
            66 input file missing, 69 server unreachable, 70 internal error, \
            73 store cannot be created, 75 temporary failure.
            """,
        version: "chime \(ChimeVersion.number) (\(Curl.version); libxml2 \(XMLDocument.libraryVersion))",
        subcommands: [
            Check.self, Categories.self, Schedule.self, Pending.self, Cancel.self, Delivered.self,
            RemoveDelivered.self, Next.self, Run.self,
        ]
    )

    /// Declared here too so that global options may come before the command name
    /// (`chime --config x.xml check`); each command reads them from its own group.
    @OptionGroup var options: GlobalOptions
}

enum ChimeVersion {
    static let number = "0.1.0"
}
