/// `sdkcore demo`: runs every demo section and prints one summary line.
struct DemoCommand: Command {
    let path = ["demo"]
    let summary = "Run the SDK Core demo (Binoban events to a local ingest, Falcon placements)"
    let help = """
        USAGE: sdkcore demo

        Starts a local ingest on 127.0.0.1, points a Binoban instance at it through the platform's transport (libcurl on Linux)
        (file storage in a temporary directory, removed afterwards), tracks, identifies, records a screen,
        flushes and prints what the ingest received. Then executes four Falcon placements against the scripted renderer of FalconCoreTesting on the real clock
        with a 300 ms load timeout: one that loads, one that times out, one answered with HTTP 500, and an
        overlay that the web content closes. Prints each execution's timeline of callbacks, events,
        diagnostics and beacons, then one summary line.

        Exit status: 0 when every Binoban event arrived and every Falcon timeline matched, 1 otherwise.

        OPTIONS:
          -h, --help  Show this help.
        """

    func run(_ arguments: [String]) async -> Int32 {
        guard arguments.isEmpty else {
            CommandLineTool.printError("sdkcore demo: unexpected argument '\(arguments[0])'\n\n\(help)")
            return 64
        }
        var results: [DemoResult] = []
        results.append(await BinobanDemo.run())
        results += await FalconDemo.run()
        let matched = results.filter(\.matched).count
        print("sdkcore demo: \(matched) of \(results.count) checks matched the expected behaviour")
        return matched == results.count ? 0 : 1
    }
}

/// The outcome of one demo execution.
struct DemoResult: Sendable {
    var title: String
    var matched: Bool
}
