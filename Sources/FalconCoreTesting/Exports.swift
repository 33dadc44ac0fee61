// The test kit works with FalconCore's types; re-exporting lets tests write `import FalconCoreTesting` alone.
@_exported import FalconCore

/// The scenario decoders' error type, shared by both test kits.
@_exported public import ScenarioSupport
