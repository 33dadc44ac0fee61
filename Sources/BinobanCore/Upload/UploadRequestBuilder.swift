#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Wraps a stored batch in the upload envelope and the request headers, gzip-compressing the body when the
/// configuration asks for it (``Configuration/compressesUploads``).
struct UploadRequestBuilder: Sendable {
    let endpoint: URL
    let headers: [String: String]
    /// Whether bodies are sent as a gzip member with `Content-Encoding: gzip`.
    let compresses: Bool
    /// `],"sentAt":"` is written per upload; this is `","writeKey":<escaped>}`.
    private let envelopeTail: [UInt8]

    init(endpoint: URL, apiKey: String, writeKey: String, compresses: Bool = false) {
        self.endpoint = endpoint
        self.compresses = compresses
        let credentials = Data("\(apiKey):".utf8).base64EncodedString()
        var headers = [
            "Content-Type": "application/json",
            "User-Agent": "\(EventEncoder.libraryName)/\(Binoban.version)",
            "Authorization": "Basic \(credentials)",
        ]
        if compresses { headers["Content-Encoding"] = "gzip" }
        self.headers = headers
        var tail: [UInt8] = Array(#"","writeKey":"#.utf8)
        JSONWriter.appendString(writeKey, to: &tail)
        tail.append(UInt8(ascii: "}"))
        envelopeTail = tail
    }

    /// `{"batch":[<events>],"sentAt":"<sentAt>","writeKey":"<writeKey>"}` as a POST request, gzip-compressed
    /// when ``compresses`` is set.
    func request(for batch: BinobanStoredBatch, sentAtMillis: Int64) -> BinobanTransportRequest {
        let opening = #"{"batch":["#.utf8
        let sentAt = #"],"sentAt":""# + ISO8601Timestamp.string(fromMillisecondsSince1970: sentAtMillis)
        guard compresses else {
            var body = Data()
            body.reserveCapacity(batch.events.count + 96)
            body.append(contentsOf: opening)
            body.append(batch.events)
            body.append(contentsOf: sentAt.utf8)
            body.append(contentsOf: envelopeTail)
            return BinobanTransportRequest(url: endpoint, method: "POST", headers: headers, body: body)
        }
        // The envelope is assembled once as bytes and compressed in one pass.
        var plain: [UInt8] = []
        plain.reserveCapacity(batch.events.count + 96)
        plain.append(contentsOf: opening)
        plain.append(contentsOf: batch.events)
        plain.append(contentsOf: sentAt.utf8)
        plain.append(contentsOf: envelopeTail)
        return BinobanTransportRequest(
            url: endpoint, method: "POST", headers: headers, body: Data(Gzip.compress(plain)))
    }
}
