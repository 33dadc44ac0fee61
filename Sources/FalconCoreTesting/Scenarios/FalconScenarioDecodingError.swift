/// Why a Falcon scenario file could not be read (the shared `ScenarioDecodingError` of both test kits).
public typealias FalconScenarioDecodingError = ScenarioDecodingError
