/// The parsed arguments of `sdkcore binoban send`.
struct SendOptions: Sendable {
    var input: String?
    var apiHost: String?
    var apiKey: String?
    var source: String?
    var storage: String?
    var dryRun = false
    var strict = false
    /// `--allow-cleartext-host`: keep an explicit `http://` on a host that is not loopback (a private ingest).
    var allowsCleartextHost = false
    var flushAt = 20
    var maxRetries = 3
    var progress: String?

    /// Why the arguments are wrong.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The environment variable read when `--api-key` is not given: a key there does not show in `ps`.
    static let apiKeyVariable = "BINOBAN_API_KEY"

    /// The key of a `--dry-run` given none: nothing is sent, so no real key is needed.
    static let dryRunKey = "dry-run"

    /// Parses `arguments` (`--name value` or `--name=value`; one positional FILE or `-`), taking the API key
    /// from `environment` when `--api-key` is absent.
    static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(Problem) -> SendOptions {
        var options = SendOptions()
        var index = 0
        func value(_ name: String, inline: String?) throws(Problem) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw Problem(description: "\(name) needs a value") }
            return arguments[index]
        }
        func integer(_ name: String, _ text: String, minimum: Int) throws(Problem) -> Int {
            guard let number = Int(text), number >= minimum else {
                // The value is not echoed: option errors never print what was given (it may be a misplaced key).
                throw Problem(description: "\(name): expected an integer of at least \(minimum)")
            }
            return number
        }
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                guard options.input == nil else {
                    throw Problem(
                        description: "give one input (a file or '-'); a second argument that is not an option was given"
                    )
                }
                options.input = argument
                index += 1
                continue
            }
            if argument == "--" {
                optionsEnded = true
                index += 1
                continue
            }
            let option = OptionArgument(argument)
            let name = option.name
            let inline = option.inline
            switch name {
            case "--api-host": options.apiHost = try value(name, inline: inline)
            case "--api-key": options.apiKey = try value(name, inline: inline)
            case "--source": options.source = try value(name, inline: inline)
            case "--storage": options.storage = try value(name, inline: inline)
            case "--flush-at": options.flushAt = try integer(name, value(name, inline: inline), minimum: 1)
            case "--max-retries": options.maxRetries = try integer(name, value(name, inline: inline), minimum: 0)
            case "--progress":
                let mode = try value(name, inline: inline)
                guard ["auto", "tty", "plain", "none"].contains(mode) else {
                    throw Problem(description: "--progress: expected auto, tty, plain or none")
                }
                options.progress = mode
            case "--dry-run", "--strict", "--allow-cleartext-host":
                guard inline == nil else { throw Problem(description: "\(name) takes no value") }
                switch name {
                case "--dry-run": options.dryRun = true
                case "--strict": options.strict = true
                default: options.allowsCleartextHost = true
                }
            default:
                throw Problem(description: OptionArgument.unknown(argument))
            }
            index += 1
        }
        guard options.input != nil else {
            throw Problem(description: "give the input: a file of JSON lines, or '-' for standard input")
        }
        if options.apiKey == nil { options.apiKey = environment[apiKeyVariable] }
        if options.dryRun, options.apiKey?.isEmpty ?? true {
            // A dry run prints envelopes, which carry no key: any key will do (Docs/Decisions/0537).
            options.apiKey = dryRunKey
        }
        guard let key = options.apiKey, !key.isEmpty else {
            throw Problem(description: "the API key is required: set \(apiKeyVariable) (or give --api-key)")
        }
        guard let source = options.source, !source.isEmpty else { throw Problem(description: "--source is required") }
        if !options.dryRun {
            guard let host = options.apiHost, !host.isEmpty else {
                throw Problem(description: "--api-host is required")
            }
        }
        if options.dryRun, options.storage != nil {
            throw Problem(description: "--dry-run sends nothing, so it takes no --storage")
        }
        return options
    }
}
