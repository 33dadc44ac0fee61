import SDKCoreCommon
import Testing

/// The package's one log hook: swift-log's levels, a stream handler for console output, and an in-memory one.
@Suite("Log hook")
struct LogHandlerTests {
    @Test("the seven levels are swift-log's, in its order, spelled as its raw values")
    func levels() {
        #expect(
            SDKCoreLogLevel.allCases.map(\.rawValue) == [
                "trace", "debug", "info", "notice", "warning", "error", "critical",
            ])
        #expect(SDKCoreLogLevel.allCases == SDKCoreLogLevel.allCases.sorted())
        #expect(SDKCoreLogLevel.warning > .notice && SDKCoreLogLevel.critical > .error)
    }

    @Test("a stream line names the source and level and lists the metadata sorted by key")
    func streamLine() {
        let record = SDKCoreLogRecord(
            level: .error, message: "batch dropped", metadata: ["kind": "batchRejected", "eventCount": "3"],
            source: "BinobanCore")
        #expect(
            SDKCoreStreamLogHandler.line(for: record)
                == "[BinobanCore] error: batch dropped eventCount=3 kind=batchRejected")
        #expect(SDKCoreStreamLogHandler().stream == .standardError)
    }

    @Test("a record remembers where it was written")
    func location() {
        let record = SDKCoreLogRecord(level: .info, message: "m", source: "Test")
        #expect(record.file.hasSuffix("LogHandlerTests.swift"))
        #expect(record.function == "location()")
        #expect(record.line > 0)
    }

    @Test("the in-memory handler keeps the latest records up to its capacity and counts the rest")
    func inMemory() {
        let logs = InMemoryLogHandler(capacity: 3)
        for index in 0..<5 { logs.log(SDKCoreLogRecord(level: .debug, message: "\(index)", source: "Test")) }
        #expect(logs.records.map(\.message) == ["2", "3", "4"])
        #expect(logs.droppedCount == 2)
        #expect(InMemoryLogHandler(capacity: 0).capacity == 1)
    }
}
