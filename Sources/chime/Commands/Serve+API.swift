import ChimeCore
import ChimeScheduler
import ChimeServer
import Foundation

extension Chime.Serve {
    /// `POST /v1/requests` as `chime schedule --json -`: attachments read from the working
    /// directory, localization keys checked, then the scheduler of the configuration in
    /// force, all or none.
    func apiScheduling(_ desks: DeskHolder, store: any NotificationStore, clock: @escaping @Sendable () -> Instant) -> APIScheduling {
        let options = self.options
        return APIScheduling { requests in
            let (resolved, problems) = Chime.Schedule.requestProblems(requests, base: FileManager.default.currentDirectoryPath,
                                                                       templatesPath: options.templatesPath)
            guard problems.isEmpty else { throw APIScheduling.Refusal(problems) }
            let scheduler = try makeScheduler(options, configuration: desks.current.configuration, store: store)
            do {
                return try scheduler.schedule(resolved, now: clock()).added.map {
                    APIScheduling.Scheduled(identifier: $0.identifier, nextTriggerDate: $0.firstFire.rfc3339(in: $0.zone))
                }
            } catch let error as SchedulingError {
                throw APIScheduling.Refusal(error.problems)
            }
        }
    }
}
