import BenchmarkSupport
@_spi(Tooling) import FalconCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One measured quantity; `sample()` runs the workload once and returns the value.
struct FalconCase {
    var name: String
    var unit: String
    /// The aim (lower is better for every Falcon case), if it sets one.
    var target: Double?
    /// Resident-memory cases take one sample without a warm-up: run each in a process of its own.
    var isMemory = false
    var sample: () -> Double
}

enum FalconCases {
    /// Resolving the workload's attributes, µs per call.
    static func resolve(iterations: Int = Workload.iterations) -> FalconCase {
        FalconCase(name: "resolve attributes", unit: "µs/call", target: 1) {
            let start = ContinuousClock.now
            for _ in 0..<iterations {
                blackHole(FalconAttributeResolver.resolve(Workload.attributes, mapping: Workload.mapping))
            }
            return microseconds(since: start) / Double(iterations)
        }
    }

    /// Building the webview URL from already resolved attributes, µs per call.
    static func webviewURL(iterations: Int = Workload.iterations) -> FalconCase {
        let resolved = FalconAttributeResolver.resolve(Workload.attributes, mapping: Workload.mapping)
        let sessionId = "0F3C2A4E-8B1D-4C6A-9E2F-7A5B3C1D0E9F"
        return FalconCase(name: "build webview URL", unit: "µs/call", target: 2) {
            let start = ContinuousClock.now
            for _ in 0..<iterations {
                blackHole(
                    FalconWebviewURLBuilder.build(
                        baseURL: Workload.config.baseURL, apiKey: Workload.apiKey,
                        placementId: resolved.placementId ?? "", sessionId: sessionId,
                        userAttributes: resolved.userAttributes, isSandbox: false, style: Workload.style))
            }
            return microseconds(since: start) / Double(iterations)
        }
    }

    /// Process CPU per execute, from `execute` to the terminal state, at the default configuration.
    static func execute(_ outcome: Outcome, count: Int = Workload.executes) -> FalconCase {
        FalconCase(
            name: "execute → \(outcome.rawValue), CPU", unit: "µs/execute",
            target: outcome == .loadedThenTeardown ? 5 : nil
        ) {
            let client = makeClient()
            let start = processCPUSeconds()
            runExecutes(count, outcome: outcome, on: client)
            return (processCPUSeconds() - start) * 1e6 / Double(count)
        }
    }

    /// The SDK's own CPU per execute: the same workload with host-facing jobs run on the caller's thread
    /// (no Dispatch queue, so no thread wake-ups), system clock and everything else at the default.
    static func executeSDKOnly(_ outcome: Outcome, count: Int = Workload.executes) -> FalconCase {
        FalconCase(name: "execute → \(outcome.rawValue), caller-run executor, CPU", unit: "µs/execute") {
            let executor = CallerRunExecutor()
            let client = makeClient(executor: executor)
            let start = processCPUSeconds()
            runExecutes(count, outcome: outcome, on: client, callerRun: executor)
            return (processCPUSeconds() - start) * 1e6 / Double(count)
        }
    }

    /// Resident memory of the process once `count` executes (loaded, then torn down) have all settled.
    static func memory(executes count: Int) -> FalconCase {
        FalconCase(name: "resident memory after \(count) settled executes", unit: "MB", isMemory: true) {
            let client = makeClient()
            runExecutes(count, outcome: .loadedThenTeardown, on: client)
            let settled = Double(residentBytes()) / 1_048_576
            if let idle = environment("BENCH_IDLE_SECONDS").flatMap({ Int($0) }), idle > 0 {
                let before = ContinuousClock.now
                while ContinuousClock.now - before < .seconds(idle) { sleep(1) }
                print("  after \(idle) s idle: \(format(Double(residentBytes()) / 1_048_576)) MB")
            }
            withExtendedLifetime(client) {}
            return settled
        }
    }
}

func microseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = (ContinuousClock.now - start).components
    return Double(elapsed.seconds) * 1e6 + Double(elapsed.attoseconds) / 1e12
}
