/// Why a Binoban scenario document was refused (the shared `ScenarioDecodingError` of SDKCoreCommon).
public typealias BinobanScenarioDecodingError = ScenarioDecodingError
