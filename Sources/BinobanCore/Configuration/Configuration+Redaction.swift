#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A configuration printed, debug-printed or dumped never shows its API key: ``Configuration/apiKey`` reads
/// `<redacted>` (or `<blank>`, which is what makes an instance disabled), and the edges (storage, transport,
/// clocks, hooks) show their type names only, so a host's own type cannot print a secret through them.
extension Configuration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `Configuration(apiKey: <redacted>, sourceIdentifier: "…", apiHost: "…", …)`, every option in order.
    public var description: String {
        let fields = redactedFields.map { "\($0.label): \($0.text)" }
        return "Configuration(\(fields.joined(separator: ", ")))"
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }

    /// Every option as a child labelled with its property name, the API key redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: redactedFields.map { (label: Optional($0.label), value: $0.text as Any) },
            displayStyle: .struct
        )
    }

    /// The options in declaration order, each as the text the description shows.
    private var redactedFields: [(label: String, text: String)] {
        func quoted(_ text: String) -> String { "\"\(text)\"" }
        func typeName(_ value: Any?) -> String { value.map { String(describing: type(of: $0)) } ?? "nil" }
        return [
            ("apiKey", apiKey.trimmingWhitespace().isEmpty ? "<blank>" : "<redacted>"),
            ("sourceIdentifier", quoted(sourceIdentifier)),
            ("apiHost", quoted(apiHost)),
            ("allowsCleartextHost", "\(allowsCleartextHost)"),
            ("uploadPath", quoted(uploadPath)),
            ("flushAt", "\(flushAt)"),
            ("flushInterval", "\(flushInterval)"),
            ("uploadMaxRetries", "\(uploadMaxRetries)"),
            ("backoffBase", "\(backoffBase)"),
            ("backoffFactor", "\(backoffFactor)"),
            ("backoffMax", "\(backoffMax)"),
            ("retryAfterLimit", "\(retryAfterLimit)"),
            ("awaitedFlushGateLimit", "\(awaitedFlushGateLimit)"),
            ("maxEventAge", maxEventAge.map { "\($0)" } ?? "nil"),
            ("maxConcurrentUploads", "\(maxConcurrentUploads)"),
            ("maxFilesPerFlush", "\(maxFilesPerFlush)"),
            ("compressesUploads", "\(compressesUploads)"),
            ("collectDeviceId", "\(collectDeviceId)"),
            ("trackApplicationLifecycleEvents", "\(trackApplicationLifecycleEvents)"),
            ("writeStageCapacity", "\(writeStageCapacity)"),
            ("storageLimits", "\(storageLimits)"),
            ("backpressure", "\(backpressure)"),
            ("storageDirectory", storageDirectory.map { quoted($0.path) } ?? "nil"),
            ("storageDurability", "\(storageDurability)"),
            ("storage", typeName(storage)),
            ("keyValueStore", typeName(keyValueStore)),
            ("transport", typeName(transport)),
            ("clock", typeName(clock)),
            ("wallClock", typeName(wallClock)),
            ("randomSource", typeName(randomSource)),
            ("contextProvider", typeName(contextProvider)),
            ("startsAutomatically", "\(startsAutomatically)"),
            ("shutdownGracePeriod", "\(shutdownGracePeriod)"),
            ("errorHandler", errorHandler == nil ? "nil" : "set"),
            ("logHandler", typeName(logHandler)),
            ("metricsObserver", typeName(metricsObserver)),
        ]
    }
}
