import ArgumentParser
import ChimeDelivery

/// What `chime run` and `chime digest` say of the deliveries they sent, and how they exit.
extension Courier.Report {
    /// The lines standard error gets for the deliveries that did not go.
    var problems: [String] {
        retrying.map { "will retry \($0)" } + failed.map { "failed \($0)" }
    }

    /// 69 when a delivery gave up; 75 when one waits for a later run, or when `waiting`
    /// (something else of the command does: a notification or a digest held).
    func exit(waiting: Bool) throws {
        if !failed.isEmpty { throw ExitCode(69) }
        if waiting || !retrying.isEmpty || notTried > 0 { throw ExitCode(75) }
    }
}
