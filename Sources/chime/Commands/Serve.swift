import ArgumentParser
import ChimeCore
import ChimeRuntime
import Foundation

extension Chime {
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "The daemon: fire what is due as it falls due, and serve HTTP (chat callbacks, signed action links).",
            discussion: """
                Unless --no-scheduler is given, it also does the cron work itself: fires each notification at its \
                instant (waking for the next one due, and checking the store every second for one scheduled sooner by \
                another process), sends the outbox and its retries (as chime run), sends digests when due (looked at \
                every minute, as chime digest) and fetches IMAP channels every minute (as chime fetch). Any number of \
                serve and run processes may share one store: each notification is claimed by one and sent once. SIGTERM \
                stops taking work, lets the round and the actions under way finish, and exits 0; what is left is fired \
                by the next process. \
                Routes: GET /health; GET /a/TOKEN/ACTION shows a page with a button and never acts, POST acts (link \
                scanners only GET); GET /p/TOKEN the preferences page, POST saves it (a form with a CSRF cookie); \
                GET /u/TOKEN the unsubscribe button, POST unsubscribes (RFC 8058); GET /v/TOKEN the reminder whole in the \
                recipient's language, its actions as forms (noindex, no-store); POST /slack/CHANNEL (v0 signature with the channel's secret, 5-minute window), \
                /discord/CHANNEL (Ed25519 with the application's public key as the channel's secret, 5-minute window; PING answered), \
                /mattermost/CHANNEL (the signed token in the button's context) and /telegram/CHANNEL \
                (X-Telegram-Bot-Api-Secret-Token equal to the channel's secret). The HTTP API: POST /v1/requests \
                (JSON as schedule --json, all or none; 201, 400 with the field at fault, 422 refused, 413 over 1 MiB; an \
                Idempotency-Key replays the first answer to the same body, 409 to another), GET \
                and DELETE /v1/requests/IDENTIFIER (the pending request as pending --json; cancel), GET /v1/pending and \
                /v1/delivered (?recipient=&limit=&cursor= → {"items", "next"}), DELETE /v1/delivered/IDENTIFIER, GET /v1/responses (?after=ID&limit=), GET \
                /v1/deliveries (?state=&limit=&cursor=), POST /v1/deliveries/ID/retry (admin), GET /v1/recipients/ID/settings (admin: \
                what the recipient changed and what Chime concluded: settings, per-category preferences, undeliverable marks, opt-in) \
                and PUT to reset them (an empty body all, {"reset": ["settings", "preferences", "undeliverable", "optIn"]} those), \
                each with Authorization: Bearer \
                SECRET of an <api><key> of at least scope read (GET) or write (POST, DELETE); 401 without a known key, 403 \
                for a scope too small, 429 with Retry-After beyond the key's rate, errors as {"error": {"code", "message", "at"}} (README, "HTTP API"); GET \
                /v1/openapi.json, without a key, the OpenAPI 3.1 document of all of it. Every callback is verified before it is \
                parsed and answered at once; the action is carried out after. Stops on SIGTERM or SIGINT; on SIGHUP reads \
                the environment file and the configuration again and serves with them (one with errors is refused, and the one before stays). \
                Prints "listening on http://HOST:PORT" once bound (--port 0 takes a free port). GET /metrics answers in \
                Prometheus' text format (README, "Watching Chime"); each request is logged at info by its route's \
                template (/a/:token/:action), never by its path.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Option(name: .long, help: "The address to listen on.")
        var host = "127.0.0.1"

        @Option(name: .long, help: "The port; 0 for any free one.")
        var port = 8080

        @Flag(name: .long, help: "Serve HTTP only; leave firing, digests and fetching to cron (chime run, digest, fetch).")
        var noScheduler = false

        func validate() throws {
            guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535 (0: any free port), not \(port)") }
        }

        func run() throws {
            let host = self.host
            try options.runtime.serve(host: host, port: port, scheduler: !noScheduler) { bound in
                // Written at once, unbuffered: whoever started it waits for this line.
                // An IPv6 address in brackets, as a URL holds it (http://[::1]:8080).
                let shown = host.contains(":") ? "[\(host)]" : host
                StandardStreams.output("listening on http://\(shown):\(bound)\n")
            }
        }
    }
}
