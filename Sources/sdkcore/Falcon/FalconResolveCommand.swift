import FalconCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `sdkcore falcon resolve`: explains how attributes resolve to a placement and the webview URL.
struct FalconResolveCommand: Command {
    /// Exit statuses (sysexits-style for usage and input errors).
    enum Status {
        static let resolved: Int32 = 0
        static let attributeMappingFailed: Int32 = 2
        static let urlConstructionFailed: Int32 = 3
        static let usage: Int32 = 64
        static let invalidInput: Int32 = 65
        static let unreadableInput: Int32 = 66
    }

    let path = ["falcon", "resolve"]
    let summary = "Explain how Falcon attributes resolve to a placement id and webview URL"
    let help = """
        USAGE: sdkcore falcon resolve (--attributes FILE | --attributes-json JSON) [options]

        Resolves an attributes dictionary the way Falcon.execute does, without loading anything. Prints the
        placement id, the lookup step that matched ("<layout>/<view>", "<view>", "<layout>" or the raw view)
        and why each earlier step did not (absent identifier, no mapping entry, empty mapping value), the
        webview URL with the API key masked (apiKey=****) and a placeholder sessionId, the placement and
        layoutId a diagnostic would carry (each capped at 128 characters), and on failure the diagnostic
        code an execute would emit.

        OPTIONS:
          --attributes FILE       The attributes as a JSON object in FILE ('-' reads standard input).
          --attributes-json JSON  The attributes as inline JSON.
          --mapping FILE          The placementMapping as a JSON object of strings in FILE ('-': stdin).
          --mapping-json JSON     The placementMapping as inline JSON.
          --base-url URL          The Falcon base URL (default https://pr.falconlabs.us).
          --api-key KEY           The API key put in the URL, then masked (default YOUR_API_KEY).
          --sandbox               Add sandbox=true, as isSandbox: true does.
          --json                  Print one JSON object instead of text.
          -h, --help              Show this help.

        EXIT STATUS:
          0   resolved; the URL was built
          2   attributeMappingFailed: no placement id
          3   urlConstructionFailed: bad base URL or blank API key
          64  usage error (unknown option, missing or repeated value)
          65  invalid input: not JSON, attributes not an object, a mapping value not a string
          66  an input file cannot be read

        EXAMPLE:
          sdkcore falcon resolve \\
            --attributes-json '{"placement_details": {"layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"}}' \\
            --mapping-json '{"ORDER_STATUS": "p-123"}'
        """

    struct Options {
        var attributes: Source?
        var mapping: Source?
        var baseURL = FalconConfig.defaultBaseURL.absoluteString
        var apiKey = "YOUR_API_KEY"
        var isSandbox = false
        var json = false

        enum Source {
            case file(String)
            case inline(String)
        }
    }

    struct Failure: Error {
        var status: Int32
        var message: String
    }

    func run(_ arguments: [String]) async -> Int32 {
        do throws(Failure) {
            let options = try parse(arguments)
            let attributes = try load(options.attributes, what: "attributes")
            guard attributes.objectValue != nil else {
                throw Failure(status: Status.invalidInput, message: "the attributes must be a JSON object")
            }
            let mapping = try options.mapping.map { source throws(Failure) in try mappingValue(source) } ?? [:]
            let resolution = FalconResolution(
                attributes: attributes,
                mapping: mapping,
                baseURL: options.baseURL,
                apiKey: options.apiKey,
                isSandbox: options.isSandbox
            )
            print(options.json ? resolution.json.jsonString() : resolution.text)
            switch resolution.failure?.code {
            case nil: return Status.resolved
            case .attributeMappingFailed?: return Status.attributeMappingFailed
            default: return Status.urlConstructionFailed
            }
        } catch {
            CommandLineTool.printError("sdkcore falcon resolve: \(error.message)")
            if error.status == Status.usage {
                CommandLineTool.printError("Run 'sdkcore falcon resolve --help' for usage.")
            }
            return error.status
        }
    }

    func parse(_ arguments: [String]) throws(Failure) -> Options {
        var options = Options()
        var index = 0
        func value(_ name: String) throws(Failure) -> String {
            index += 1
            guard index < arguments.count else { throw Failure(status: Status.usage, message: "\(name) needs a value") }
            return arguments[index]
        }
        func set(_ source: inout Options.Source?, _ new: Options.Source, _ name: String) throws(Failure) {
            guard source == nil else {
                throw Failure(status: Status.usage, message: "\(name): give the value once (a file or inline JSON)")
            }
            source = new
        }
        while index < arguments.count {
            var argument = arguments[index]
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inlineValue = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            func next() throws(Failure) -> String {
                if let inlineValue { return inlineValue }
                return try value(argument)
            }
            switch argument {
            case "--attributes": try set(&options.attributes, .file(next()), "--attributes")
            case "--attributes-json": try set(&options.attributes, .inline(next()), "--attributes")
            case "--mapping": try set(&options.mapping, .file(next()), "--mapping")
            case "--mapping-json": try set(&options.mapping, .inline(next()), "--mapping")
            case "--base-url": options.baseURL = try next()
            case "--api-key": options.apiKey = try next()
            case "--sandbox", "--json":
                guard inlineValue == nil else {
                    throw Failure(status: Status.usage, message: "\(argument) takes no value")
                }
                if argument == "--sandbox" { options.isSandbox = true } else { options.json = true }
            default:
                throw Failure(status: Status.usage, message: "unknown argument '\(arguments[index])'")
            }
            index += 1
        }
        guard options.attributes != nil else {
            throw Failure(
                status: Status.usage, message: "give the attributes with --attributes FILE or --attributes-json JSON")
        }
        if case .file("-")? = options.attributes, case .file("-")? = options.mapping {
            throw Failure(
                status: Status.usage, message: "only one of --attributes and --mapping can read standard input")
        }
        return options
    }

    private func load(_ source: Options.Source?, what: String) throws(Failure) -> JSONValue {
        let data: Data
        let origin: String
        switch source {
        case .file(let path)?:
            do {
                data = try CommandInput.contents(of: path)
            } catch {
                throw Failure(status: Status.unreadableInput, message: "cannot read the \(what): \(error.message)")
            }
            origin = path == "-" ? "standard input" : path
        case .inline(let text)?:
            data = Data(text.utf8)
            origin = "the inline JSON"
        case nil:
            return .object([:])
        }
        do {
            return try JSONParsing.parse(data)
        } catch {
            throw Failure(status: Status.invalidInput, message: "the \(what) in \(origin) are not valid JSON: \(error)")
        }
    }

    private func mappingValue(_ source: Options.Source) throws(Failure) -> [String: String] {
        let value = try load(source, what: "mapping")
        guard let members = value.objectValue else {
            throw Failure(status: Status.invalidInput, message: "the mapping must be a JSON object of strings")
        }
        var mapping: [String: String] = [:]
        for (key, entry) in members {
            guard let text = entry.stringValue else {
                throw Failure(status: Status.invalidInput, message: "the mapping value for \"\(key)\" is not a string")
            }
            mapping[key] = text
        }
        return mapping
    }
}
