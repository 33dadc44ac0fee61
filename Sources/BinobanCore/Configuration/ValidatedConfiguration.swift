#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The result of checking a ``Configuration``: the endpoint and thresholds to use, what was adjusted, and
/// why the configuration cannot be used at all, if it cannot. Pure: no I/O.
struct ValidatedConfiguration: Sendable {
    /// The upload endpoint, or `nil` when the configuration is invalid.
    var endpoint: URL?
    /// The reasons the configuration is unusable; empty when usable.
    var invalidReasons: [String]
    /// The corrections applied (clamps, host normalisation).
    var adjustments: [String]
    var flushAt: Int
    var flushInterval: Duration
    var uploadMaxRetries: Int
    var backoffBaseMillis: Int
    var backoffFactor: Double
    var backoffMaxMillis: Int
    var maxFilesPerFlush: Int
    var writeStageCapacity: Int
    var maxConcurrentUploads: Int
    var retryAfterLimit: Duration
    var awaitedFlushGateLimit: Duration
    var maxEventAgeMillis: Int64?

    var isValid: Bool { invalidReasons.isEmpty && endpoint != nil }

    /// The pipeline's fixed rules.
    func rules(for configuration: Configuration) -> PipelineRules {
        PipelineRules(
            maxFilesPerFlush: maxFilesPerFlush, maxRetries: uploadMaxRetries,
            backoff: BackoffSchedule(baseMillis: backoffBaseMillis, factor: backoffFactor, maxMillis: backoffMaxMillis),
            retryAfterLimit: retryAfterLimit, maxConcurrentUploads: maxConcurrentUploads,
            backpressure: configuration.backpressure, hasTransport: configuration.transport != nil,
            reportsDeliveries: configuration.deliveryObserver != nil, awaitedFlushGateLimit: awaitedFlushGateLimit,
            maxEventAgeMillis: maxEventAgeMillis)
    }

    init(_ configuration: Configuration) {
        var invalid: [String] = []
        var adjusted: [String] = []
        if configuration.apiKey.trimmingWhitespace().isEmpty { invalid.append("apiKey is blank") }
        if configuration.sourceIdentifier.trimmingWhitespace().isEmpty { invalid.append("sourceIdentifier is blank") }

        let host = HostNormalization.normalize(
            configuration.apiHost, allowsCleartext: configuration.allowsCleartextHost)
        adjusted.append(contentsOf: host.adjustments)
        var path = configuration.uploadPath.trimmingWhitespace()
        if !path.hasPrefix("/") { path = "/" + path }
        if let problem = host.problem {
            invalid.append(problem)
            endpoint = nil
        } else if let url = URL(string: "\(host.scheme)://\(host.host)\(path)"), url.host != nil {
            endpoint = url
        } else {
            invalid.append("apiHost and uploadPath do not form a valid URL")
            endpoint = nil
        }

        flushAt = configuration.flushAt
        if flushAt < 1 {
            adjusted.append("flushAt \(flushAt) is below 1; using 20")
            flushAt = 20
        }
        flushInterval = Self.interval(configuration.flushInterval, adjustments: &adjusted)
        uploadMaxRetries = max(0, configuration.uploadMaxRetries)
        backoffBaseMillis = Self.milliseconds(configuration.backoffBase)
        backoffFactor =
            configuration.backoffFactor.isFinite && configuration.backoffFactor >= 1
            ? configuration.backoffFactor : 2.0
        backoffMaxMillis = Self.milliseconds(configuration.backoffMax)
        maxFilesPerFlush = max(1, configuration.maxFilesPerFlush)
        writeStageCapacity = min(max(1, configuration.writeStageCapacity), 10_000_000)
        maxConcurrentUploads = min(max(1, configuration.maxConcurrentUploads), 64)
        retryAfterLimit = max(.zero, configuration.retryAfterLimit)
        awaitedFlushGateLimit = max(.zero, configuration.awaitedFlushGateLimit)
        if let age = configuration.maxEventAge, age <= .zero {
            adjusted.append("maxEventAge \(age) is not above zero; no age limit is applied")
            maxEventAgeMillis = nil
        } else {
            maxEventAgeMillis = configuration.maxEventAge.map { Int64(Self.milliseconds($0)) }
        }
        if configuration.uploadMaxRetries < 0 || configuration.backoffBase < .zero
            || configuration.backoffMax < .zero || configuration.maxFilesPerFlush < 1
            || configuration.writeStageCapacity != writeStageCapacity
            || configuration.maxConcurrentUploads != maxConcurrentUploads
            || configuration.retryAfterLimit != retryAfterLimit || backoffFactor != configuration.backoffFactor
            || configuration.awaitedFlushGateLimit != awaitedFlushGateLimit
        {
            adjusted.append("retry, backoff or capacity options out of range were clamped")
        }
        adjusted.append(contentsOf: configuration.storageLimits.adjustments)
        invalidReasons = invalid
        adjustments = adjusted
    }

    /// Converts a flush interval in seconds, clamping values that are not positive and finite to 30 s.
    static func interval(_ seconds: Double, adjustments: inout [String]) -> Duration {
        guard seconds.isFinite, seconds > 0 else {
            adjustments.append("flushInterval \(seconds) is not a positive number of seconds; using 30")
            return .seconds(30)
        }
        return .milliseconds(Int64(min(seconds, 31_536_000) * 1000))
    }
}

extension ValidatedConfiguration {
    /// Whole milliseconds of a backoff duration: negative becomes zero, and a duration too long for an `Int` of
    /// milliseconds is capped (the backoff schedule counts in milliseconds).
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let cappedSeconds = min(seconds, Int64(Int.max / 1000 - 1))
        return Int(cappedSeconds) * 1000 + Int(max(0, attoseconds) / 1_000_000_000_000_000)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
