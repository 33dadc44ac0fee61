#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Collects a scenario's outputs in the order the host observes them, plus the beacons (which arrive from
/// detached tasks and are placed after their diagnostic at the end of the run).
final class ScenarioRecorder: FalconDiagnosticsDelegate, FalconBeaconTransport {
    struct Beacon: Sendable {
        var url: String
        var body: JSONValue
    }

    private let outputs = LockedValue([FalconScenarioOutput]())
    private let beacons = LockedValue([Beacon]())
    private let clock: any FalconClock

    init(clock: any FalconClock) {
        self.clock = clock
    }

    /// Records an output stamped with the virtual instant (`at`, whole milliseconds).
    func record(_ type: String, _ fields: [String: JSONValue] = [:]) {
        let now = clock.now().components
        let milliseconds = now.seconds * 1000 + now.attoseconds / 1_000_000_000_000_000
        var stamped = fields
        stamped["at"] = .int(Int(milliseconds))
        outputs.withLock { $0.append(FalconScenarioOutput(type: type, fields: stamped)) }
    }

    /// Records the diagnostic with its routing identifiers.
    func falconDidEncounter(_ diagnostic: FalconDiagnostic) {
        record(
            "diagnostic",
            [
                "code": .string(diagnostic.code.rawValue),
                "placement": diagnostic.placement.map(JSONValue.string) ?? .null,
                "layoutId": diagnostic.layoutId.map(JSONValue.string) ?? .null,
            ]
        )
    }

    /// Records the beacon's URL and decoded body; answers `204`.
    func send(_ request: FalconBeaconRequest) async throws -> FalconBeaconResponse {
        let body =
            (try? JSONDecoder().decode(JSONValue.self, from: request.body))
            ?? .string(String(decoding: request.body, as: UTF8.self))
        beacons.withLock { $0.append(Beacon(url: request.url.absoluteString, body: body)) }
        return FalconBeaconResponse(statusCode: 204)
    }

    /// The outputs with every beacon placed right after the first diagnostic it reports (same code, placement
    /// and layout id) that has no beacon yet; a beacon with no such diagnostic goes at the end.
    func mergedOutputs() -> [FalconScenarioOutput] {
        var remaining = beacons.withLock { $0 }
        var merged: [FalconScenarioOutput] = []
        for output in outputs.withLock({ $0 }) {
            merged.append(output)
            guard output.type == "diagnostic" else { continue }
            let match = remaining.firstIndex { beacon in
                beacon.body["code"] == output.fields["code"]
                    && (beacon.body["placement"] ?? .null) == (output.fields["placement"] ?? .null)
                    && (beacon.body["layoutId"] ?? .null) == (output.fields["layoutId"] ?? .null)
            }
            if let match { merged.append(Self.output(remaining.remove(at: match))) }
        }
        merged += remaining.map(Self.output)
        return merged
    }

    private static func output(_ beacon: Beacon) -> FalconScenarioOutput {
        FalconScenarioOutput(type: "beacon", fields: ["url": .string(beacon.url), "body": beacon.body])
    }
}
