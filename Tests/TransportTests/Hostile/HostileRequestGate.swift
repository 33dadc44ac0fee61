/// At most a few hostile requests of the test process in flight at once.
///
/// The Linux transport's engine is shared by every transport of the process and keeps at most 32 connections; the
/// matrix's hundreds of parallel cases (many holding a connection until their deadline) would otherwise close the
/// kept connections of other suites that count their connections. Fewer requests at once also keep the load on a
/// shared 2-core machine within what the suites' real-clock tests tolerate.
actor HostileRequestGate {
    /// The gate of the test process.
    static let shared = HostileRequestGate(width: 12)

    private let width: Int
    private var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) {
        self.width = width
    }

    /// Runs `body` once fewer than `width` others run.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        if inFlight < width {
            inFlight += 1
        } else {
            // The slot is handed over by the finishing request, so `inFlight` stays counted.
            await withCheckedContinuation { waiting.append($0) }
        }
        defer { release() }
        return try await body()
    }

    private func release() {
        if waiting.isEmpty {
            inFlight -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
