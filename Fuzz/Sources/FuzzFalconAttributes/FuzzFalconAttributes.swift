import FalconCore
import FalconCoreTesting
import Foundation
import FuzzSupport
import SDKCoreCommon

// Attribute trees from the host, through placement mapping, attribute resolution and the webview URL: JSON
// attributes parsed from the input (or a tree of loosely typed values), a style with any numbers, sandbox or
// not. Invariant: an execution that loads a URL loads one with the configured host.

/// Runs one input (what it covers is at the top of this file); always returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFalconAttributes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let rig = FalconTestRig()
    let mode = input.choice(3)
    let style =
        input.bool()
        ? FalconStyle(
            widgetBackgroundColor: FalconColor(red: input.double(), green: input.double(), blue: input.double()),
            slotPadding: Int(truncatingIfNeeded: input.uint64()), fontFamily: input.string(limit: 64))
        : nil
    let sandbox = input.bool()
    if mode != 2 { rig.client.initSdk(apiKey: input.bool() ? "KEY" : input.string(limit: 32)) }
    let renderer = rig.renderer([])
    let text = String(decoding: input.rest(), as: UTF8.self)
    if mode == 1, let object = (try? JSONValue(parsing: text))?.objectValue {
        // The same attributes through the loosely typed entry point.
        let loose = object.mapValues { value -> Any in value.objectValue.map { $0.mapValues { $0 as Any } } ?? value }
        rig.client.execute(attributes: loose, placement: .inline(renderer), style: style, isSandbox: sandbox)
    } else {
        let attributes = (try? JSONValue(parsing: text)) ?? ["placement_details": ["view": .string(text)]]
        rig.execute(attributes, placement: .inline(renderer), style: style, isSandbox: sandbox)
    }
    rig.executor.runAll()
    for command in renderer.commands {
        if case .load(let url, _) = command {
            require(url.host != nil, "the webview URL has a host")
        }
    }
    rig.clock.advance(by: .seconds(20))
    rig.executor.runAll()
    return 0
}
