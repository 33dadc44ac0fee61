#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Wraps a stored batch in the upload envelope and the request headers.
struct UploadRequestBuilder: Sendable {
    let endpoint: URL
    let headers: [String: String]
    /// `],"sentAt":"` is written per upload; this is `","writeKey":<escaped>}`.
    private let envelopeTail: [UInt8]

    init(endpoint: URL, apiKey: String, writeKey: String) {
        self.endpoint = endpoint
        let credentials = Data("\(apiKey):".utf8).base64EncodedString()
        headers = [
            "Content-Type": "application/json",
            "User-Agent": "\(EventEncoder.libraryName)/\(Binoban.version)",
            "Authorization": "Basic \(credentials)",
        ]
        var tail: [UInt8] = Array(#"","writeKey":"#.utf8)
        JSONWriter.appendString(writeKey, to: &tail)
        tail.append(UInt8(ascii: "}"))
        envelopeTail = tail
    }

    /// `{"batch":[<events>],"sentAt":"<sentAt>","writeKey":"<writeKey>"}` as a POST request.
    func request(for batch: BinobanStoredBatch, sentAtMillis: Int64) -> BinobanTransportRequest {
        var body = Data()
        body.reserveCapacity(batch.events.count + 96)
        body.append(contentsOf: #"{"batch":["#.utf8)
        body.append(batch.events)
        body.append(contentsOf: #"],"sentAt":""#.utf8)
        body.append(contentsOf: ISO8601Timestamp.string(fromMillisecondsSince1970: sentAtMillis).utf8)
        body.append(contentsOf: envelopeTail)
        return BinobanTransportRequest(url: endpoint, method: "POST", headers: headers, body: body)
    }
}
