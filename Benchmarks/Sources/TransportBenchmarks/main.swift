// The client's CPU per upload, and while one upload waits, for the Linux libcurl transport (`CurlEventTransport`)
// and `URLSessionEventTransport`, against a server in another process (Scripts/linux-transport/run.sh starts it).
//
//   TransportBenchmarks per-request <curl|urlsession> URL REQUESTS BODY_BYTES [CA_FILE]
//       sends REQUESTS uploads of BODY_BYTES one after another (after 50 unmeasured ones, so the connection is
//       kept and warm) and prints the process CPU (user + system, every thread) per upload.
//   TransportBenchmarks waiting <curl|urlsession> URL SECONDS [CA_FILE]
//       sends one upload to a server that never answers, with a deadline past SECONDS, and prints the process
//       CPU spent over SECONDS of waiting.
//   TransportBenchmarks first-request <curl|urlsession> URL COUNT BODY_BYTES [CA_FILE]
//       the process CPU of the first upload of a fresh process (loading the transport, the CA bundle, a new TCP
//       connection and TLS handshake), then of the next COUNT on the kept connection, per upload: what a
//       process pays once, beside what it pays per request.
import BenchmarkSupport
import BinobanCore
import BinobanCoreURLSession
import Foundation

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 5, let url = URL(string: arguments[3]) else {
    print("usage: TransportBenchmarks per-request|waiting curl|urlsession URL COUNT|SECONDS [BODY_BYTES] [CA_FILE]")
    exit(2)
}
let mode = arguments[1]
let kind = arguments[2]

func makeTransport(deadline: Duration, caFile: String?) -> any BinobanEventTransport {
    if kind == "urlsession" {
        return URLSessionEventTransport(requestTimeout: deadline, resourceTimeout: deadline)
    }
    #if os(Linux)
    return CurlEventTransport(requestTimeout: deadline, resourceTimeout: deadline, caBundlePath: caFile)
    #else
    fatalError("the libcurl transport is Linux only")
    #endif
}

func request(bodyBytes: Int) -> BinobanTransportRequest {
    BinobanTransportRequest(
        url: url,
        headers: [
            "Content-Type": "application/json", "User-Agent": "binoban-core-swift/bench",
            "Authorization": "Basic S0VZOg==",
        ],
        body: Data(repeating: UInt8(ascii: "x"), count: bodyBytes))
}

switch mode {
case "per-request":
    let count = Int(arguments[4]) ?? 1000
    let bodyBytes = arguments.count > 5 ? Int(arguments[5]) ?? 7000 : 7000
    let transport = makeTransport(deadline: .seconds(30), caFile: arguments.count > 6 ? arguments[6] : nil)
    let upload = request(bodyBytes: bodyBytes)
    // On a task of the global pool, as the pipeline's driver sends (not on the main actor).
    let (cpu, wallSeconds, failures) = await Task.detached {
        var failures = 0
        for _ in 0..<50 where (try? await transport.send(upload)) == nil { failures += 1 }
        let cpuBefore = processCPUSeconds()
        let wallBefore = ContinuousClock.now
        for _ in 0..<count where (try? await transport.send(upload)) == nil { failures += 1 }
        let cpu = processCPUSeconds() - cpuBefore
        let elapsed = (ContinuousClock.now - wallBefore).components
        return (cpu, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, failures)
    }.value
    let load =
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "?"
    print(
        "per-request \(kind): \(count) uploads of \(bodyBytes) B, CPU \(format(cpu * 1e6 / Double(count))) µs each, "
            + "wall \(format(wallSeconds * 1e3 / Double(count))) ms each, "
            + "failures \(failures), load \(load)")
case "waiting":
    let seconds = Int(arguments[4]) ?? 20
    let transport = makeTransport(deadline: .seconds(seconds + 30), caFile: arguments.count > 5 ? arguments[5] : nil)
    let waiting = Task { try? await transport.send(request(bodyBytes: 7000)) }
    try? await Task.sleep(for: .milliseconds(500))  // the request is out and waiting
    let cpuBefore = processCPUSeconds()
    try? await Task.sleep(for: .seconds(seconds))
    let cpu = processCPUSeconds() - cpuBefore
    waiting.cancel()
    print("waiting \(kind): \(format(cpu * 1e3)) ms of CPU over \(seconds) s of waiting")
case "first-request":
    let count = max(1, Int(arguments[4]) ?? 20)
    let bodyBytes = arguments.count > 5 ? Int(arguments[5]) ?? 7000 : 7000
    let transport = makeTransport(deadline: .seconds(30), caFile: arguments.count > 6 ? arguments[6] : nil)
    let upload = request(bodyBytes: bodyBytes)
    let (first, next, failures) = await Task.detached {
        var failures = 0
        let before = processCPUSeconds()
        if (try? await transport.send(upload)) == nil { failures += 1 }
        let afterFirst = processCPUSeconds()
        for _ in 0..<count where (try? await transport.send(upload)) == nil { failures += 1 }
        return (afterFirst - before, (processCPUSeconds() - afterFirst) / Double(count), failures)
    }.value
    print(
        "first-request \(kind): first upload \(format(first * 1e3)) ms of CPU, the next \(count) "
            + "\(format(next * 1e6)) µs each, failures \(failures)")
default:
    print("unknown mode \(mode)")
    exit(2)
}
