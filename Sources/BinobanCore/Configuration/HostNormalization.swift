/// Turns the configured `apiHost` into a scheme and an authority (plus optional path prefix), or a reason why
/// it is not a host. Pure.
///
/// The scheme is HTTPS, except for an explicit `http://` on a loopback host, or on any host when the
/// configuration allows a cleartext host (`allowsCleartextHost`); both are reported as adjustments.
package enum HostNormalization {
    /// The scheme and host the pipeline uses, what it adjusted, or why the text is not a host.
    package struct Result: Equatable {
        package var scheme: String
        package var host: String
        package var adjustments: [String]
        package var problem: String?
    }

    /// Normalizes `raw` as the configuration does (`allowsCleartext`: ``Configuration/allowsCleartextHost``).
    package static func normalize(_ raw: String, allowsCleartext: Bool = false) -> Result {
        var host = raw.trimmingWhitespace()
        var adjustments: [String] = []
        var scheme = "https"
        guard !host.isEmpty else {
            return Result(scheme: scheme, host: "", adjustments: [], problem: "apiHost is blank")
        }
        let lowered = host.lowercased()
        if lowered.hasPrefix("https://") {
            host = String(host.dropFirst("https://".count))
            adjustments.append("apiHost had a scheme; it was removed (HTTPS is always used)")
        } else if lowered.hasPrefix("http://") {
            host = String(host.dropFirst("http://".count))
            let authority = host.split(separator: "/", maxSplits: 1).first.map(String.init) ?? host
            if LoopbackHost.contains(authority: Substring(authority)) {
                scheme = "http"
                adjustments.append("apiHost uses plain HTTP; allowed only because the host is loopback")
            } else if allowsCleartext {
                scheme = "http"
                adjustments.append(
                    "apiHost uses plain HTTP to a host that is not loopback, as allowsCleartextHost allows: "
                        + "events and the API key cross the network unencrypted")
            } else {
                adjustments.append("apiHost had an http:// scheme; HTTPS is used instead")
            }
        } else if host.contains("://") {
            return Result(
                scheme: scheme, host: host, adjustments: adjustments, problem: "apiHost has an unknown scheme")
        }
        if host.hasSuffix("/") {
            while host.hasSuffix("/") { host.removeLast() }
            adjustments.append("apiHost had a trailing slash; it was removed")
        }
        let parts = host.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let authority = parts.first.map(String.init) ?? ""
        guard isValidAuthority(authority) else {
            return Result(scheme: scheme, host: host, adjustments: adjustments, problem: "apiHost is not a host name")
        }
        if parts.count > 1 {
            let path = parts[1]
            let allowed = path.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-._~/".unicodeScalars.contains(scalar))
            }
            guard allowed else {
                return Result(
                    scheme: scheme, host: host, adjustments: adjustments, problem: "apiHost has an invalid path")
            }
        }
        return Result(scheme: scheme, host: host, adjustments: adjustments, problem: nil)
    }

    private static func isValidAuthority(_ authority: String) -> Bool {
        guard !authority.isEmpty else { return false }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            let inside = authority[authority.index(after: authority.startIndex)..<close]
            let hexOK =
                !inside.isEmpty && inside.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || $0 == ":" }
            let rest = authority[authority.index(after: close)...]
            return hexOK && (rest.isEmpty || isPort(rest.dropFirst()) && rest.hasPrefix(":"))
        }
        let pieces = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count <= 2 else { return false }
        if pieces.count == 2, !isPort(pieces[1]) { return false }
        let name = pieces[0]
        guard !name.isEmpty, name.utf8.count <= 253, !name.hasPrefix("."), !name.hasPrefix("-"), !name.contains("..")
        else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == ".")
        }
    }

    private static func isPort(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.count <= 5, let port = Int(text) else { return false }
        return (1...65_535).contains(port)
    }
}
