import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// `"\(binoban.configuration)"` printed the API key. Every way Swift turns a value into text must redact it.
@Suite("Configuration redaction")
struct ConfigurationRedactionTests {
    static let key = "sk_live_4f9a8b7c6d5e"

    static func configuration() -> Configuration {
        var configuration = Configuration(apiKey: key, sourceIdentifier: "SOURCE")
        configuration.apiHost = "api.binoban.io"
        configuration.transport = ScriptedTransport(script: [], defaultAnswer: 200)
        configuration.storage = InMemoryEventStorage(writeKey: "SOURCE")
        configuration.keyValueStore = InMemoryKeyValueStore()
        configuration.errorHandler = { _ in }
        return configuration
    }

    /// The key and its Basic credentials, as they would appear if leaked.
    static let secrets = [key, Data("\(key):".utf8).base64EncodedString()]

    static func leaks(_ text: String) -> Bool { secrets.contains { text.contains($0) } }

    @Test("description, debugDescription, interpolation and dump() show the options, never the key")
    func everyTextFormRedactsTheKey() {
        let configuration = Self.configuration()
        var dumped = ""
        dump(configuration, to: &dumped)
        let texts = [
            String(describing: configuration), String(reflecting: configuration), "\(configuration)", dumped,
            String(describing: Optional(configuration)), "\([configuration])",
        ]
        for text in texts {
            #expect(!Self.leaks(text), "\(text)")
            #expect(text.contains("<redacted>"))
            #expect(text.contains("api.binoban.io"))
            #expect(text.contains("SOURCE"))
        }
        #expect(
            String(describing: configuration).hasPrefix(
                #"Configuration(apiKey: <redacted>, sourceIdentifier: "SOURCE", apiHost: "api.binoban.io", allowsCleartextHost: false, uploadPath: "/b", flushAt: 20,"#
            ))
        #expect(String(describing: configuration).contains("transport: ScriptedTransport"))
        #expect(String(describing: configuration).contains("errorHandler: set"))
    }

    @Test("the mirror has one child per option, the key's value redacted")
    func mirrorRedactsTheKey() {
        let mirror = Mirror(reflecting: Self.configuration())
        let children = mirror.children.map { ($0.label ?? "", "\($0.value)") }
        #expect(mirror.displayStyle == .struct)
        #expect(children.first?.0 == "apiKey")
        #expect(children.first?.1 == "<redacted>")
        #expect(children.count == 36)
        #expect(!children.contains { Self.leaks($0.1) })
        #expect(Set(children.map(\.0)).count == children.count)
    }

    @Test("a blank key reads <blank>, the reason the instance is disabled")
    func blankKeyIsNamed() {
        let configuration = Configuration(apiKey: "  ", sourceIdentifier: "SOURCE")
        #expect(String(describing: configuration).hasPrefix("Configuration(apiKey: <blank>,"))
    }

    @Test("dumping a whole instance shows neither the key nor its credentials")
    func dumpingAnInstanceRedactsTheKey() async {
        var configuration = Self.configuration()
        configuration.clock = ManualClock()
        configuration.flushInterval = 3600
        let binoban = Binoban.create(configuration: configuration)
        binoban.track(name: "Opened")
        var dumped = ""
        dump(binoban, to: &dumped)
        #expect(!Self.leaks(dumped))
        #expect(!Self.leaks("\(binoban)") && !Self.leaks(String(reflecting: binoban)))
        #expect(!Self.leaks("\(binoban.configuration)"))
        _ = await binoban.shutdown(gracePeriod: .zero)
    }

    @Test("an upload request printed or dumped by a host's transport shows no credentials")
    func transportRequestRedactsTheCredentials() throws {
        let builder = UploadRequestBuilder(
            endpoint: try #require(URL(string: "https://api.binoban.io/b")), apiKey: Self.key, writeKey: "SOURCE")
        let request = builder.request(
            for: BinobanStoredBatch(id: BinobanBatchID(sequence: 1), events: Data("{}".utf8), eventCount: 1),
            sentAtMillis: 0)
        #expect(Self.leaks(request.headers["Authorization"] ?? ""), "the transport still gets the credentials")
        var dumped = ""
        dump(request, to: &dumped)
        for text in [String(describing: request), String(reflecting: request), "\(request)", dumped] {
            #expect(!Self.leaks(text), "\(text)")
            #expect(text.contains("<redacted>"))
        }
        #expect(
            String(describing: request)
                == "BinobanTransportRequest(POST https://api.binoban.io/b, headers: [Authorization: <redacted>, "
                + "Content-Type: application/json, User-Agent: binoban-core-swift/\(Binoban.version)], body: 70 bytes)")
    }
}
