#if os(Linux)
import Foundation
import TestSupport
import Testing

/// `sdkcore binoban send` on Linux uploads with the libcurl transport, which takes its CA bundle from
/// `SSL_CERT_FILE`: against a TLS ingest whose certificate a throwaway CA signed, the upload goes through with the
/// CA in `SSL_CERT_FILE` and gets no answer with another CA there, which the instance's report names as a
/// certificate failure.
@Suite("binoban send over TLS with SSL_CERT_FILE")
struct SendOverTLSTests {
    func send(to server: ScriptedPythonServer, environment: [String: String]) async throws -> SDKCoreProcess.Output {
        try await SDKCoreProcess.run(
            [
                "binoban", "send", "--api-host", "https://127.0.0.1:\(server.port)", "--source", "S",
                "--max-retries", "0", "-",
            ],
            input: "{\"type\": \"track\", \"name\": \"over-tls\"}\n",
            environment: ["BINOBAN_API_KEY": "K"].merging(environment) { _, new in new })
    }

    @Test("The CA in SSL_CERT_FILE verifies the ingest: the event is sent")
    func trustedThroughTheEnvironment() async throws {
        let certificates = try TestCertificates.shared.get()
        let server = try ScriptedPythonServer(
            certificate: certificates.serverCertificate, key: certificates.serverKey)
        let output = try await send(to: server, environment: ["SSL_CERT_FILE": certificates.authority])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("1 sent"), "\(output.standardError)")
    }

    @Test("Another CA in SSL_CERT_FILE: the upload gets no answer, and the line says it is the certificate")
    func untrusted() async throws {
        let certificates = try TestCertificates.shared.get()
        let server = try ScriptedPythonServer(
            certificate: certificates.serverCertificate, key: certificates.serverKey)
        let output = try await send(to: server, environment: ["SSL_CERT_FILE": certificates.otherAuthority])
        #expect(output.status != 0)
        #expect(output.standardError.contains("no answer: certificate ("), "\(output.standardError)")
        #expect(output.standardError.contains("0 sent"), "\(output.standardError)")
    }
}
#endif
