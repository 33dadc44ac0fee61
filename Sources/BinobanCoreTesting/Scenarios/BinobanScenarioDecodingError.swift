/// Why a Binoban scenario document was refused (the shared `ScenarioDecodingError` of both test kits).
public typealias BinobanScenarioDecodingError = ScenarioDecodingError
