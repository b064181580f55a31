import Metrics

extension ReplyDesk {
    /// `chime_replies_total{status, via}`: what each inbound reply or press became
    /// (``InboundRecord/Outcome``'s names, and a press's own), and by which way it came:
    /// `email`, `link`, or the chat platform's kind. Never an identifier or an address.
    public static let repliesMetric = "chime_replies_total"

    /// Counts one reply or press.
    public static func count(status: String, via: String) {
        Counter(label: repliesMetric, dimensions: [("status", status), ("via", via)]).increment()
    }

    /// `reply`, counted as an email reply.
    static func counted(_ reply: Reply) -> Reply {
        count(status: reply.record.outcome.rawValue, via: "email")
        return reply
    }
}
