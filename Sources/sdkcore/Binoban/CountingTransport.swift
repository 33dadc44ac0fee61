import BinobanCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Wraps the transport of `sdkcore binoban send` to count events the server accepted or rejected.
struct CountingTransport: BinobanEventTransport {
    let base: any BinobanEventTransport
    let ledger: SendLedger
    /// Called when a failure says the address itself is wrong (a plain-HTTP server answered the TLS hello), which
    /// no retry can mend: the command then ends its final flush at once (or skips it).
    var whenMisaddressed: @Sendable () -> Void = {}

    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        let response: BinobanTransportResponse
        do {
            response = try await base.send(request)
        } catch {
            // Kept for the report the instance makes about this batch, which says only "no answer".
            let reason = TransportFailureWords.reason(of: error)
            ledger.update { $0.lastTransportFailure = reason }
            if TransportFailureWords.isMisaddressed(error) { whenMisaddressed() }
            throw error
        }
        let events = Self.eventCount(request.body)
        switch response.statusCode {
        case 200..<300: ledger.update { $0.sent += events }
        case 400..<500 where response.statusCode != 429: ledger.update { $0.rejected += events }
        default: break
        }
        return response
    }

    /// The number of events in a batch envelope.
    static func eventCount(_ body: Data) -> Int {
        (try? JSONDecoder().decode(JSONValue.self, from: body))?["batch"]?.arrayValue?.count ?? 0
    }
}

/// The transport of `--dry-run`: prints each batch envelope as one line of JSON on standard output and answers
/// 200 without sending anything.
struct PrintingTransport: BinobanEventTransport {
    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        // The body exactly as it would be sent: compact JSON, one line (strings escape their line breaks).
        print(String(decoding: request.body, as: UTF8.self))
        return BinobanTransportResponse(statusCode: 200)
    }
}
