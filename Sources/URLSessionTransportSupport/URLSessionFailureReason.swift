/// The reasons a public URLSession transport error names, so that one classification of `URLError` codes
/// serves every transport.
///
/// A public `Reason` enum conforms by declaring these cases; ``URLSessionTransportFailure/reason(as:)``
/// then picks the right one.
package protocol URLSessionFailureReason {
    /// Nothing answered in time.
    static var timedOut: Self { get }
    /// The host could not be reached (refused, unknown host, no network).
    static var cannotConnect: Self { get }
    /// The connection closed before a complete answer arrived.
    static var connectionLost: Self { get }
    /// TLS could not be established or the certificate was refused.
    static var secureConnectionFailed: Self { get }
    /// An answer arrived that is not HTTP.
    static var notHTTP: Self { get }
    /// Any other failure of the URL loading system.
    static var other: Self { get }
}
