import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The words `sdkcore binoban send` prints for errors that come from the libraries: the explanation, never a
/// type name, an error domain dump or a kind identifier.
enum SendMessages {
    /// An instance's report: its value-free message, `warning:` first for a warning, and how many events it is
    /// about.
    static func text(of report: BinobanError) -> String {
        var notes: [String] = []
        if report.eventCount > 0 { notes.append(report.eventCount == 1 ? "1 event" : "\(report.eventCount) events") }
        var message = report.message
        if report.suppressedCount > 0 {
            // The rate limit's summary says the count and then the last report; the count is said once, here.
            if let marker = message.firstRange(of: "summarised; the last: ") {
                message = String(message[marker.upperBound...])
            }
            notes.append(
                report.suppressedCount == 1
                    ? "1 similar report suppressed by the rate limit, summarised here"
                    : "\(report.suppressedCount) similar reports suppressed by the rate limit, summarised here")
        }
        var text = report.severity == .warning ? "warning: \(message)" : message
        if !notes.isEmpty { text += " (\(notes.joined(separator: ", ")))" }
        return text
    }

    /// An instance's report as the command prints it: ``text(of:)``, and for an upload failure the transport's
    /// reason in the command's words. A report that names the reason itself (`BinobanError.transportFailure`) gets
    /// the command's advice for it; one that does not (a summary from before the reason was known) gets
    /// `lastTransportFailure`, the words the ledger kept for the last request without an answer
    /// (``TransportFailureWords``, Docs/Decisions/0224).
    static func text(of report: BinobanError, lastTransportFailure: String?) -> String {
        let text = text(of: report)
        guard report.kind == .uploadFailed else { return text }
        if let failure = report.transportFailure {
            guard let advice = TransportFailureWords.advice(for: failure.reason) else { return text }
            return text + "; " + advice
        }
        guard text.contains("no answer"), let lastTransportFailure else { return text }
        return TransportFailureWords.adding(lastTransportFailure, to: text)
    }

    /// A storage error: its message and the system's reason, without the type name and code.
    static func text(of failure: BinobanFileStorageError) -> String {
        guard let number = failure.systemErrorNumber else { return failure.message }
        return "\(failure.message): \(systemReason(number))"
    }

    /// The C library's text for `errno` `number`, such as `Permission denied`.
    static func systemReason(_ number: Int32) -> String {
        guard let text = strerror(number) else { return "system error \(number)" }
        return String(cString: text)
    }
}
