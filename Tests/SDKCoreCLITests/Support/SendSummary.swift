import Foundation

/// The counters of the summary line of `sdkcore binoban send`, parsed, so that a test can check that they add up:
/// `read = accepted + bad + skipped` and `accepted + left by an earlier run = sent + failed + not sent`.
struct SendSummary: Equatable {
    var read = 0
    var accepted = 0
    var leftByEarlierRuns = 0
    var sent = 0
    var failed = 0
    var notSent = 0
    var bad = 0
    var skipped = 0

    /// Parses the last summary line of `standardError`; `nil` when there is none.
    init?(_ standardError: String) {
        guard
            let line = standardError.split(separator: "\n").last(where: {
                $0.hasPrefix("sdkcore binoban send: ") && $0.contains(" read, ")
            })
        else { return nil }
        let head = line.split(separator: ";").first.map(String.init) ?? ""
        for part in head.dropFirst("sdkcore binoban send: ".count).components(separatedBy: ", ") {
            let words = part.split(separator: " ")
            guard let first = words.first else { continue }
            let isWould = first == "would"
            guard let number = Int(isWould ? words.dropFirst().first ?? "" : first) else { continue }
            let rest = words.dropFirst(isWould ? 2 : 1).joined(separator: " ")
            switch rest {
            case _ where isWould: sent = number
            case "line read", "lines read": read = number
            case "event accepted", "events accepted": accepted = number
            case "event left by an earlier run", "events left by an earlier run": leftByEarlierRuns = number
            case "sent": sent = number
            case "failed": failed = number
            case "not sent", "not printed": notSent = number
            case "bad line", "bad lines": bad = number
            case _ where rest.hasPrefix("line skipped") || rest.hasPrefix("lines skipped"): skipped = number
            default: continue
            }
        }
    }

    /// Whether both sums hold.
    var addsUp: Bool {
        read == accepted + bad + skipped && accepted + leftByEarlierRuns == sent + failed + notSent
    }
}
