/// Why a Falcon scenario file could not be read (the shared `ScenarioDecodingError` of SDKCoreCommon).
public typealias FalconScenarioDecodingError = ScenarioDecodingError
