/// The one rule for a repeated option, applied by the dispatcher before any command parses its arguments: an
/// option given twice is a usage error in every command, rather than the last value winning in one command and
/// an error in another.
enum OptionRepetition {
    /// The first option name (`--api-key` from `--api-key=K` or `--api-key K`) that occurs twice among
    /// `arguments`, which end before any `--`. A value that happens to start with `-` counts as a name; that
    /// only matters when the same text is given twice.
    static func firstRepeated(in arguments: [String]) -> String? {
        var seen: Set<String> = []
        for argument in arguments where argument.hasPrefix("-") && argument != "-" {
            let name = String(argument.prefix { $0 != "=" })
            if !seen.insert(name).inserted { return name }
        }
        return nil
    }
}
