/// The outcome of one scenario run: what was expected, what was observed and a readable report.
public struct FalconScenarioResult: Sendable, Hashable {
    /// The first difference between the expected and the observed outputs.
    public struct Mismatch: Sendable, Hashable {
        /// The position in both lists (0-based).
        public var index: Int
        /// The expectation at `index`, or `nil` when more outputs were observed than expected.
        public var expected: FalconScenarioExpectation?
        /// The output at `index`, or `nil` when fewer outputs were observed than expected.
        public var observed: FalconScenarioOutput?
        /// Why they differ, for example `field "url": expected "…", observed "…"`.
        public var reason: String
    }

    /// The scenario's name.
    public var name: String
    /// The expectations, in order.
    public var expected: [FalconScenarioExpectation]
    /// What the run produced, in order.
    public var observed: [FalconScenarioOutput]
    /// Steps that could not be applied (a report on a surface that never loaded, …); each fails the run.
    public var problems: [String]

    /// Creates a result; the comparison happens here.
    public init(
        name: String, expected: [FalconScenarioExpectation], observed: [FalconScenarioOutput], problems: [String]
    ) {
        self.name = name
        self.expected = expected
        self.observed = observed
        self.problems = problems
    }

    /// Whether every step applied and the outputs matched the expectations one to one, in order.
    public var passed: Bool { problems.isEmpty && mismatch == nil }

    /// The first mismatch, or `nil` when the outputs match.
    public var mismatch: Mismatch? {
        for index in 0..<max(expected.count, observed.count) {
            let expectation = index < expected.count ? expected[index] : nil
            let output = index < observed.count ? observed[index] : nil
            switch (expectation, output) {
            case (let expectation?, let output?):
                if let reason = FalconScenarioMatcher.difference(expectation, output) {
                    return Mismatch(index: index, expected: expectation, observed: output, reason: reason)
                }
            case (let expectation?, nil):
                return Mismatch(
                    index: index, expected: expectation, observed: nil,
                    reason: "expected output #\(index) was not observed (only \(observed.count) outputs)")
            case (nil, let output?):
                return Mismatch(
                    index: index, expected: nil, observed: output,
                    reason: "output #\(index) was observed but not expected (only \(expected.count) expected)")
            case (nil, nil):
                break
            }
        }
        return nil
    }

    /// One line: `first mismatch at output #3: …` or the first problem; empty when passed.
    public var summary: String {
        if let problem = problems.first { return problem }
        guard let mismatch else { return "" }
        return "first mismatch at output #\(mismatch.index): \(mismatch.reason)"
    }

    /// A readable diff: the first mismatch, then every output side by side (`ok`, `!!` differs, `+` observed
    /// but not expected, `-` expected but not observed).
    public var report: String {
        var lines = ["scenario \(name): \(passed ? "PASS" : "FAIL")"]
        for problem in problems { lines.append("  problem: \(problem)") }
        if let mismatch {
            lines.append("  first mismatch at output #\(mismatch.index): \(mismatch.reason)")
            lines.append("    expected: \(mismatch.expected?.description ?? "(nothing)")")
            lines.append("    observed: \(mismatch.observed?.description ?? "(nothing)")")
        }
        lines.append("  outputs (expected vs observed):")
        for index in 0..<max(expected.count, observed.count) {
            let expectation = index < expected.count ? expected[index] : nil
            let output = index < observed.count ? observed[index] : nil
            let number = "#\(index)"
            switch (expectation, output) {
            case (let expectation?, let output?):
                if FalconScenarioMatcher.difference(expectation, output) == nil {
                    lines.append("    ok \(number) \(output)")
                } else {
                    lines.append("    !! \(number) expected \(expectation)")
                    lines.append("       \(String(repeating: " ", count: number.count)) observed \(output)")
                }
            case (let expectation?, nil): lines.append("    -  \(number) expected \(expectation)")
            case (nil, let output?): lines.append("    +  \(number) observed \(output)")
            case (nil, nil): break
            }
        }
        return lines.joined(separator: "\n")
    }
}
