@_spi(Tooling) import FalconCore
import FalconCoreTesting
import FuzzSupport
import SDKCoreCommon

// What web content and the host's renderer report about one execution: bridge messages (JSON text as on
// Android, values as on iOS) and every other renderer report (navigation responses with any status, failures,
// visibility with any bit pattern, touches, termination, teardown), interleaved with time passing, supersede
// and overlay dismissals, on the test kit's manual clock. Nothing may trap and the client must settle.

private func step(_ input: inout FuzzInput) -> ScriptedRenderer.Step {
    switch input.choice(12) {
    case 0: return .respond(status: Int(truncatingIfNeeded: Int16(bitPattern: input.uint16())))
    case 1: return .finish
    case 2: return .failProvisional(errorCode: Int(truncatingIfNeeded: input.uint64()))
    case 3: return .failCommitted(errorCode: Int(truncatingIfNeeded: input.uint64()))
    case 4: return .cancelNavigation
    case 5: return .postJSON(input.string(limit: 2048))
    case 6: return .post((try? JSONValue(parsing: input.string(limit: 2048))) ?? .null)
    case 7: return .visibility(input.double())
    case 8: return .touch
    case 9: return .terminate
    case 10: return .hostTeardown
    default:
        let names = ["loaded", "height", "resize", "noFill", "no_fill", "close", "error", "click", "x"]
        let name = names[input.choice(names.count)]
        let data: JSONValue = [
            "height": input.bool() ? .double(input.double()) : .string(input.string(limit: 8)),
            "clickUrl": .string(input.string(limit: 64)),
        ]
        return .event(name, data)
    }
}

/// Runs one input (what it covers is at the top of this file); always returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFalconBridge(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    // The bridge decoder alone, on the whole input as text.
    _ = FalconBridgeMessage.decode(json: String(decoding: input.bytes, as: UTF8.self))

    let rigHolder = RigHolder()
    let rig = rigHolder.rig
    rig.client.initSdk(apiKey: "KEY")
    let attributes: JSONValue = ["placement_details": ["view": "ORDER_STATUS", "layout_id": "L"]]
    var renderers: [ScriptedRenderer] = []
    func execute() {
        if input.bool() {
            let renderer = rig.renderer([])
            renderers.append(renderer)
            rig.execute(attributes, placement: .inline(renderer))
        } else {
            rig.execute(attributes, placement: .overlay)
        }
        rig.executor.runAll()
    }
    execute()
    while !input.isAtEnd {
        switch input.choice(8) {
        case 0: rig.clock.advance(by: .milliseconds(Int64(input.uint16())))
        case 1: execute()
        case 2: _ = rigHolder.presenter.completeDismissal()
        case 3: _ = rigHolder.presenter.dismissExternally()
        default:
            let target = renderers.isEmpty ? rigHolder.presented.last : renderers[input.choice(renderers.count)]
            target?.play(step(&input))
        }
        rig.executor.runAll()
    }
    rig.clock.advance(by: .seconds(60))
    _ = rigHolder.presenter.completeDismissal()
    rig.clock.advance(by: .seconds(60))
    rig.executor.runAll()
    return 0
}

/// A rig whose overlay presenter hands out scripted renderers the target can report through.
private final class RigHolder {
    let presenter: InMemoryOverlayPresenter
    let rig: FalconTestRig
    private let made = Locked<[ScriptedRenderer]>([])

    init() {
        let made = self.made
        let clockBox = Locked<(any FalconClock)?>(nil)
        presenter = InMemoryOverlayPresenter(dismissal: .manual) {
            guard let clock = clockBox.withLock({ $0 }) else { return nil }
            let renderer = ScriptedRenderer(clock: clock, script: [])
            made.withLock { $0.append(renderer) }
            return renderer
        }
        rig = FalconTestRig(presenter: presenter)
        clockBox.withLock { $0 = rig.clock }
    }

    var presented: [ScriptedRenderer] { made.withLock { $0 } }
}
