/// The one rule both cores apply before they accept plain HTTP: the host must be loopback (`127.0.0.1`,
/// `localhost` or `[::1]`, any case), where nothing leaves the machine. Any other host is reached over HTTPS
/// only (Binoban's `apiHost`, Falcon's `baseURL`; Docs/Decisions/0010).
package enum LoopbackHost {
    /// The loopback host names, lowercased, IPv6 in brackets as in a URL's authority.
    private static let names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    /// Whether the host of `authority` (`[userinfo@]host[:port]`) is a loopback host.
    package static func contains(authority: Substring) -> Bool {
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host: Substring
        if hostAndPort.hasPrefix("["), let close = hostAndPort.firstIndex(of: "]") {
            host = hostAndPort[...close]
        } else {
            host = hostAndPort.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        return names.contains(host.lowercased())
    }
}
