/// Turns a ``LoopbackHTTPResponse`` into the bytes of an HTTP/1.1 answer.
enum ResponseSerializer {
    /// The interim answer to `Expect: 100-continue`.
    static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The wire form of `response`.
    ///
    /// - Parameters:
    ///   - requestMethod: the method being answered; a `HEAD` answer carries the length but no body.
    ///   - requestVersion: `HTTP/1.0` clients are told explicitly when the connection stays open.
    ///   - closing: whether the server closes the connection after this answer.
    static func bytes(
        for response: LoopbackHTTPResponse,
        requestMethod: String,
        requestVersion: String,
        closing: Bool
    ) -> [UInt8] {
        let status = (200...999).contains(response.status) ? response.status : 500
        let bodyForbidden = status == 204 || status == 304
        var head = "HTTP/1.1 \(status) \(reasonPhrase(for: status))\r\n"
        for field in response.headers {
            if asciiCaseInsensitiveEquals(field.name, "Content-Length")
                || asciiCaseInsensitiveEquals(field.name, "Transfer-Encoding")
                || asciiCaseInsensitiveEquals(field.name, "Connection")
            {
                continue
            }
            head += "\(singleLine(field.name)): \(singleLine(field.value))\r\n"
        }
        if !bodyForbidden {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        if closing {
            head += "Connection: close\r\n"
        } else if requestVersion == "HTTP/1.0" {
            head += "Connection: keep-alive\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if !bodyForbidden && requestMethod != "HEAD" {
            bytes.append(contentsOf: response.body)
        }
        return bytes
    }

    /// A minimal answer for a request the parser rejected.
    static func errorBytes(status: Int) -> [UInt8] {
        let body = "\(status) \(reasonPhrase(for: status))\n"
        return Array(
            ("HTTP/1.1 \(status) \(reasonPhrase(for: status))\r\nContent-Type: text/plain\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)").utf8
        )
    }

    /// Whether the response asks for the connection to be closed after it.
    static func requestsClose(_ response: LoopbackHTTPResponse) -> Bool {
        response.headers.values(for: "Connection").contains { value in
            value.split(separator: ",").contains { asciiCaseInsensitiveEquals(trimmed($0), "close") }
        }
    }

    /// The standard reason phrase, or a generic one for codes without a registered phrase.
    static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 417: return "Expectation Failed"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(status)"
        }
    }

    /// Replaces CR and LF so a header given by a test can never split the response.
    private static func singleLine(_ text: String) -> String {
        String(text.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
    }

    private static func trimmed(_ text: Substring) -> String {
        String(
            text.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        )
    }
}
