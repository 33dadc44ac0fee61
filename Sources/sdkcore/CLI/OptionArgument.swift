/// One command-line argument split as `--name=value`, and the words for one that no command knows.
struct OptionArgument: Sendable, Hashable {
    /// The part before the first `=` (the whole argument when it has none).
    var name: String
    /// The part after the first `=`, if any.
    var inline: String?

    /// Splits `argument` at its first `=`.
    init(_ argument: String) {
        if let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            inline = String(argument[argument.index(after: equals)...])
        } else {
            name = argument
            inline = nil
        }
    }

    /// `unknown option '--apikey'`: the option's name only, never a value written after `=` (a mistyped
    /// `--apikey=KEY` must not put the key into a CI log). An argument that is not an option is not quoted
    /// either, for the same reason: it may be the value of a mistyped option.
    static func unknown(_ argument: String) -> String {
        let name = OptionArgument(argument).name
        guard name.hasPrefix("-"), name.count > 1 else {
            return "unexpected argument (\(argument.count) characters; its text is not shown)"
        }
        // A name that is not plain letters, digits and dashes is itself shown by length only.
        guard name.count <= 40, name.allSatisfy({ $0 == "-" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else {
            return "unknown option (\(name.count) characters; its text is not shown)"
        }
        return "unknown option '\(name)'" + (OptionArgument(argument).inline == nil ? "" : " (its value is not shown)")
    }
}
