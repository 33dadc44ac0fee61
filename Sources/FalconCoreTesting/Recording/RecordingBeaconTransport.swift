#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A beacon transport that records every request and answers with a scripted outcome.
public final class RecordingBeaconTransport: FalconBeaconTransport {
    /// What ``send(_:)`` does after recording.
    public enum Outcome: Sendable, Hashable {
        /// Answer with this HTTP status.
        case status(Int)
        /// Throw (a network failure).
        case networkFailure
    }

    /// The error thrown for ``Outcome/networkFailure``.
    public struct NetworkFailure: Error, Sendable, Hashable {}

    private let recorded = LockedValue([FalconBeaconRequest]())
    private let outcome: Outcome

    /// Creates a transport answering every request with `outcome` (`204` by default).
    public init(outcome: Outcome = .status(204)) {
        self.outcome = outcome
    }

    /// Records `request`, then answers or throws.
    public func send(_ request: FalconBeaconRequest) async throws -> FalconBeaconResponse {
        recorded.withLock { $0.append(request) }
        switch outcome {
        case .status(let code): return FalconBeaconResponse(statusCode: code)
        case .networkFailure: throw NetworkFailure()
        }
    }

    /// Every request received so far, in arrival order.
    public var requests: [FalconBeaconRequest] { recorded.withLock { $0 } }

    /// The bodies received so far as UTF-8 text.
    public var bodies: [String] { requests.map { String(decoding: $0.body, as: UTF8.self) } }
}
