extension SDKCoreLogRecord {
    /// The diagnostic code of a FalconCore error or warning line (its `code` metadata), `nil` for other lines.
    package var falconDiagnosticCode: FalconDiagnosticCode? {
        metadata["code"].flatMap(FalconDiagnosticCode.init(rawValue:))
    }
}
