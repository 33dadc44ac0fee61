// A helper process for the transport tests and benchmarks: sends requests through one transport and reports what
// each ended with, and what the last one cost the process. A transport that traps (FoundationNetworking's
// `fatalError`, swift-corelibs-foundation issue 5285) takes only this process down; the test reads its exit.
//
// Usage: TransportProbe <transport> <events|beacons> <timeout-ms> [--ca FILE] [--repeat N] [--body-bytes N]
//            <url> [<url> ...]
//
// <transport> is `urlsession` or, on Linux, `curl` (which takes `--ca`). The requests go one after another through one transport (so a later one may reuse
// the connection of an earlier one). For each it prints one line: `answer <status>`, or `error <reason> [<detail>]`
// with the reason the transport's error names (and for URLSession the `URLError` code). With `--repeat N` the last
// URL is sent N times and only errors are printed. Before the last URL's requests it resets the process's peak
// resident size (Linux `/proc/self/clear_refs`) and afterwards prints `cost cpu_us=<user + system CPU of the
// process during them> per_request_us=<the same / N> peak_growth_kb=<peak RSS - RSS before>`. `--body-bytes N`
// pads the batch to about N bytes.

import BinobanCore
import BinobanCoreURLSession
import FalconCore
import FalconCoreURLSession
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `text` and a newline to standard output at once (the reader may be waiting for it).
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// A field of `/proc/self/status` in kB (`VmRSS`, `VmHWM`), or 0 where there is none.
func statusKilobytes(_ field: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}

/// User and system CPU of the process so far, in microseconds.
func cpuMicroseconds() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    let user = Int(usage.ru_utime.tv_sec) * 1_000_000 + Int(usage.ru_utime.tv_usec)
    let system = Int(usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_stime.tv_usec)
    return user + system
}

/// The reason a transport error names, as text.
func reason(of error: any Error) -> String {
    switch error {
    case let failure as URLSessionEventTransportError: "\(failure.reason.rawValue) \(failure.urlErrorCode ?? 0)"
    case let failure as URLSessionBeaconTransportError: "\(failure.reason.rawValue) \(failure.urlErrorCode ?? 0)"
    #if os(Linux)
    case let failure as CurlEventTransportError: "\(failure.reason.rawValue) \(failure.curlCode ?? 0)"
    case let failure as CurlBeaconTransportError: "\(failure.reason.rawValue) \(failure.curlCode ?? 0)"
    #endif
    case is CancellationError: "cancelled"
    default: "unknown:\(type(of: error))"
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())

/// Removes `--name VALUE` from the arguments and returns the value.
@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    let value = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    return value
}

let caFile = option("--ca")
let repeats = max(1, Int(option("--repeat") ?? "") ?? 1)
let bodyBytes = Int(option("--body-bytes") ?? "")
guard arguments.count >= 4, let timeoutMs = Int(arguments[2]), ["events", "beacons"].contains(arguments[1]) else {
    say(
        "usage: TransportProbe <transport> <events|beacons> <timeout-ms> [--ca FILE] [--repeat N] [--body-bytes N] "
            + "<url> [<url> ...]")
    exit(2)
}
let transportName = arguments[0]
let timeout = Duration.milliseconds(timeoutMs)
let urls = arguments[3...].compactMap(URL.init(string:))
/// A small batch, or with `--body-bytes` one of about that size (an event padded with a property).
let body: Data = {
    let event = #"{"type":"track","event":"Opened","properties":{"p":"PAD"}}"#
    let envelope = #"{"batch":[EVENT],"sentAt":"2026-01-01T00:00:00.000Z","writeKey":"k"}"#
    let bare = envelope.replacingOccurrences(of: "EVENT", with: event).utf8.count - 3
    let padding = String(repeating: "x", count: max(0, (bodyBytes ?? 0) - bare))
    let filled = envelope.replacingOccurrences(
        of: "EVENT", with: event.replacingOccurrences(of: "PAD", with: padding))
    return Data(filled.utf8)
}()

/// Sends one request to `url`; the line to print.
let send: (URL) async -> String
switch (transportName, arguments[1]) {
case ("urlsession", "events"):
    let transport = URLSessionEventTransport(requestTimeout: timeout, resourceTimeout: timeout)
    send = { url in
        do {
            let request = BinobanTransportRequest(url: url, headers: ["Content-Type": "application/json"], body: body)
            return "answer \(try await transport.send(request).statusCode)"
        } catch {
            return "error \(reason(of: error))"
        }
    }
case ("urlsession", "beacons"):
    let transport = URLSessionBeaconTransport(timeout: timeout)
    send = { url in
        do {
            return
                "answer \(try await transport.send(FalconBeaconRequest(url: url, headers: ["Content-Type": "application/json"], body: body)).statusCode)"
        } catch {
            return "error \(reason(of: error))"
        }
    }
#if os(Linux)
case ("curl", "events"):
    let transport = CurlEventTransport(requestTimeout: timeout, resourceTimeout: timeout, caBundlePath: caFile)
    send = { url in
        do {
            let request = BinobanTransportRequest(url: url, headers: ["Content-Type": "application/json"], body: body)
            return "answer \(try await transport.send(request).statusCode)"
        } catch {
            return "error \(reason(of: error))"
        }
    }
case ("curl", "beacons"):
    let transport = CurlBeaconTransport(timeout: timeout, caBundlePath: caFile)
    send = { url in
        do {
            let request = FalconBeaconRequest(url: url, headers: ["Content-Type": "application/json"], body: body)
            return "answer \(try await transport.send(request).statusCode)"
        } catch {
            return "error \(reason(of: error))"
        }
    }
#endif
default:
    say("unknown transport \(transportName) or kind \(arguments[1])")
    exit(2)
}

// The last URL is sent `repeats` times; those requests are measured.
let measured = urls.count - 1
var cpuBefore = 0
var residentBefore = 0
for (index, url) in (urls + Array(repeating: urls[urls.count - 1], count: repeats - 1)).enumerated() {
    if index == measured {
        // Writing 5 resets the peak resident size to the current one (Linux 4.0 and later).
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        residentBefore = statusKilobytes("VmRSS")
        cpuBefore = cpuMicroseconds()
    }
    let line = await send(url)
    if repeats == 1 || !line.hasPrefix("answer") { say(line) }
}
let cpu = cpuMicroseconds() - cpuBefore
say(
    "cost cpu_us=\(cpu) per_request_us=\(cpu / repeats) peak_growth_kb=\(max(0, statusKilobytes("VmHWM") - residentBefore))"
)
exit(0)
