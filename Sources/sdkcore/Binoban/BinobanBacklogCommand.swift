import BinobanCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `sdkcore binoban backlog` and `sdkcore binoban backlog export`: what a storage directory holds for one
/// source, read without the lock and without changing a file (Docs/Decisions/0255).
struct BinobanBacklogCommand: Command {
    /// Whether the command lists the batches or writes their events.
    enum Mode: Sendable {
        case list
        case export
    }

    let mode: Mode

    /// Exit statuses.
    enum Status {
        static let done: Int32 = 0
        static let usage: Int32 = 64
        static let unreadable: Int32 = 66
    }

    var path: [String] { mode == .list ? ["binoban", "backlog"] : ["binoban", "backlog", "export"] }

    var summary: String {
        mode == .list
            ? "List the batches a storage directory holds for a source (count, bytes, oldest event's age)"
            : "Write the events a storage directory holds for a source as JSON lines, as they are uploaded"
    }

    var help: String {
        let usage =
            mode == .list
            ? "USAGE: sdkcore binoban backlog --storage DIR --source ID"
            : "USAGE: sdkcore binoban backlog export --storage DIR --source ID"
        let what =
            mode == .list
            ? """
            Lists the batch files DIR holds for the source ID, oldest first: each file's state (finished, or open:
            being written or left by a process that was killed), its events and bytes, and the age of its oldest
            event (by the events' "timestamp"); then the totals. Standard output, one line per batch.
            """
            : """
            Writes every event DIR holds for the source ID to standard output, one JSON object per line, oldest
            batch first, each exactly as it is uploaded (the objects that go between {"batch":[ and ]).
            """
        return """
            \(usage)

            \(what)

            The files are read without taking the storage's lock and nothing is changed (no repair, no rename,
            no deletion), so it is safe while sdkcore binoban send or an instance uses DIR; what it prints is then
            a snapshot. Only intact events are shown: a record torn by a kill is left for the storage to cut.
            Events a running sender holds in memory because the storage is full are in no file and not shown
            (its progress line counts them: held N).

            OPTIONS:
              --storage DIR   The storage directory (the --storage of sdkcore binoban send, or an instance's
                              storageDirectory). Required.
              --source ID     The source identifier (the files are named after it). Required.
              -h, --help      Show this help.

            EXIT STATUS: 0 done, 64 usage error, 66 the directory cannot be read.
            """
    }

    func run(_ arguments: [String]) async -> Int32 {
        let name = path.joined(separator: " ")
        var directory: String?
        var source: String?
        var index = 0
        func usage(_ message: String) -> Int32 {
            CommandLineTool.printError(
                "sdkcore \(name): \(message)\nRun 'sdkcore \(name) --help' for usage.")
            return Status.usage
        }
        while index < arguments.count {
            let argument = arguments[index]
            let option = OptionArgument(argument)
            guard let value = option.inline ?? (index + 1 < arguments.count ? arguments[index + 1] : nil),
                ["--storage", "--source"].contains(option.name)
            else {
                if ["--storage", "--source"].contains(option.name) { return usage("\(option.name) needs a value") }
                return usage(OptionArgument.unknown(argument))
            }
            if option.name == "--storage" { directory = value } else { source = value }
            index += option.inline == nil ? 2 : 1
        }
        guard let directory, !directory.isEmpty else { return usage("--storage is required") }
        guard let source, !source.isEmpty else { return usage("--source is required") }
        let namespace = BinobanFileEventStorage.namespace(forSourceIdentifier: source)
        let reader: StoredBacklogReader
        do {
            reader = try StoredBacklogReader(
                directory: URL(fileURLWithPath: directory, isDirectory: true), namespace: namespace)
        } catch {
            CommandLineTool.printError("sdkcore \(name): --storage \(directory): \(error.description)")
            return Status.unreadable
        }
        var listing = BacklogListing(now: Date())
        do {
            _ = try reader.batches { batch, events in
                switch mode {
                case .list: listing.add(batch, events: events)
                case .export: Self.export(events)
                }
            }
        } catch {
            CommandLineTool.printError("sdkcore \(name): \(error)")
            return Status.unreadable
        }
        if mode == .list { print(listing.text(directory: directory, source: source), terminator: "") }
        return Status.done
    }

    /// Writes each event and a newline to standard output (events are compact JSON: no raw line breaks).
    private static func export(_ events: [Data]) {
        var text = ""
        for event in events {
            text += String(decoding: event, as: UTF8.self)
            text += "\n"
        }
        print(text, terminator: "")
    }
}
