#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Produces the `sessionId` of each execution's URL.
public protocol FalconIDSource: Sendable {
    /// A new session id; a fresh one for every execution.
    func makeSessionID() -> String
}

/// The default ID source: a random UUID string per call.
public struct FalconUUIDSource: FalconIDSource {
    /// Creates the source.
    public init() {}

    /// `UUID().uuidString`.
    public func makeSessionID() -> String { UUID().uuidString }
}
