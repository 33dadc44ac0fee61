import BinobanCore
import BinobanCoreURLSession
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bounds of `sdkcore binoban send`.
enum SendCommandLimits {
    /// At most this many accepted lines wait for the storage (well below the write stage's 1000).
    static let maxOutstanding = 500
    /// The longest input line, in bytes before its newline: 1 MiB. A longer line is bad, reported as soon as it
    /// passes the limit; the rest of it is read and discarded, never kept.
    static let maximumLineBytes = 1 << 20
}

/// `sdkcore binoban send`: sends JSON lines through the real Binoban pipeline.
struct BinobanSendCommand: Command {
    /// Exit statuses.
    enum Status {
        static let allSent: Int32 = 0
        static let someFailed: Int32 = 1
        static let badLine: Int32 = 2
        static let usage: Int32 = 64
        static let inputChanged: Int32 = 65
        static let unreadableInput: Int32 = 66
        static let storageUnusable: Int32 = 73
        /// Interrupted by a signal: this plus the signal's number (130 for SIGINT, 143 for SIGTERM), as a shell
        /// reports a process the signal ended.
        static let signalled: Int32 = 128
    }

    let path = ["binoban", "send"]
    let summary = "Send events given as JSON lines through the Binoban pipeline (durable with --storage)"
    let help = """
        USAGE: sdkcore binoban send --api-host HOST --source ID [options] FILE|-
               (with the API key in BINOBAN_API_KEY, or --api-key KEY)

        Reads events as JSON lines from FILE (or standard input for '-') and sends them through the real
        Binoban pipeline (batching, retries, the platform's transport: libcurl on Linux) to HOST. One event per line:

          {"type": "track", "name": "purchase", "properties": {"item": "shoes"}, "userId": "u1"}
          {"type": "identify", "userId": "u1", "traits": {"plan": "pro"}}
          {"type": "page", "name": "Pricing", "properties": {"path": "/pricing"}, "anonymousId": "a1"}
          {"type": "group", "groupId": "company-7", "traits": {"plan": "pro"}, "userId": "u1"}
          {"type": "alias", "userId": "u1", "previousId": "a1", "messageId": "alias-u1"}

        FIELDS:
          type         track | identify | page | screen | group | alias (required)
          name, event  track: the event name, required (one of the two); page/screen: the name, optional
          category     page/screen: optional
          properties   an object (track, page, screen)
          traits       an object (identify, group)
          groupId      group: required;   previousId  alias: required (with userId)
          userId       this event's user; anonymousId  this event's anonymousId (not for alias). A line with
                       neither carries the tool's own anonymousId; the tool's identity never changes
          timestamp    optional event time: ISO-8601 ("2026-08-02T12:00:00.000Z") or milliseconds since 1970
          messageId    optional id (default: a random UUID); context, integrations: optional objects, sent
                       as the server calls send them (context merged over the tool's, library kept)
        Blank lines are skipped. A line that is not a JSON object, has any other field or a wrong type, or is
        longer than 1 MiB (1048576 bytes) is bad: reported with its number on standard error and skipped.

        OPTIONS:
          --api-host HOST    The ingest host. Without a scheme it is reached over https (a note says so); http://
                             is kept for 127.0.0.1/localhost, and for another host only with
                             --allow-cleartext-host. A path after the host is kept and /b follows it (a note
                             gives the URL). Required unless --dry-run.
          --allow-cleartext-host
                             Keep an explicit http:// on a host that is not loopback (an ingest inside a private
                             network): events and the API key cross the network unencrypted.
          --api-key KEY      The API key (Basic auth; not needed with --dry-run), when BINOBAN_API_KEY is not
                             set. Prefer the variable: an argument shows in 'ps' to every user of the machine.
          --source ID        The source identifier (the envelope's writeKey). Required.
          --storage DIR      Keep batches, identity and a progress checkpoint in DIR: an interrupted run (Ctrl-C,
                             SIGTERM, a kill) run again with the same input resumes without losing or duplicating
                             events (see Docs/CLI.md for the exact guarantee). Without it, events live in memory.
          --dry-run          Print each batch envelope (one JSON line per batch) on standard output; send nothing
                             (the summary says "would send N").
          --strict           Stop at the first bad line (exit 2). Otherwise bad lines are reported and skipped.
          --flush-at N       Upload once N events are stored (default 20): a trigger, not a batch size.
          --max-retries N    Retries of a failing batch in one flush (default 3, backoff from 1 s, doubling).
                             The final flush ends once a batch has used them: the ingest counts as down.
          --progress MODE    auto (default: tty on a terminal, none otherwise), tty, plain or none.
          -h, --help         Show this help.
        Each option may be given once.

        PROGRESS (standard error): lines read (and the percentage of the file when its size is known), events
        stored, held (only while a full storage holds events back for room), sent and failed, and the send rate
        in events per second.

        SUMMARY: the last line on standard error, always printed once reading has begun:
          N lines read, N events accepted, N sent, N failed, N not sent, N bad lines
        "failed": lost for good (rejected by the ingest, too large, evicted by the storage bounds); "not sent":
        not taken by the ingest by the end of the run (kept in DIR with --storage, otherwise lost).

        EXIT STATUS (0 only when every line was valid and every accepted event was sent):
          0   every line was valid and every accepted event was sent (with --dry-run: printed)
          1   some accepted events were not sent: "failed" or "not sent" is not 0, or the progress checkpoint
              could not be saved (1 wins over 2)
          2   some lines were bad (reported and skipped; with --strict the run stopped at the first one), and
              every accepted event was sent
          64  usage error, including an --api-host the pipeline refuses (nothing is read or sent)
          65  --storage holds a checkpoint for a different input
          66  the input cannot be read
          73  the storage directory cannot be used
          130 interrupted by SIGINT (143: by SIGTERM), while reading or during the final flush (a second signal
              ends the process at once); the summary says what was not sent and, with --storage, that it is kept

        EXAMPLES:
          BINOBAN_API_KEY=KEY sdkcore binoban send --api-host api.binoban.io --source web events.jsonl
          cat events.jsonl | BINOBAN_API_KEY=KEY sdkcore binoban send --dry-run --source web -
        """

    func run(_ arguments: [String]) async -> Int32 {
        let options: SendOptions
        do {
            options = try SendOptions.parse(arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            CommandLineTool.printError(
                "sdkcore binoban send: \(error)\nRun 'sdkcore binoban send --help' for usage.")
            return Status.usage
        }
        guard let progress = SendProgress.resolve(options.progress) else { return Status.usage }
        return await BinobanSend(options: options, progress: SendProgress(mode: progress, dryRun: options.dryRun)).run()
    }
}
