// The test kit is used together with BinobanCore; re-exporting it lets tests import the kit alone.
@_exported import BinobanCore
// The scenario decoders' error type, shared by both test kits (kept out of SDKCoreCommon, which the cores
// re-export into every host's namespace).
@_exported import ScenarioSupport
