import BinobanCore
import Foundation
import FuzzSupport
import SDKCoreCommon

// The identity file (the key-value store's JSON file, which holds the traits as JSON text): the input is the
// file's bytes, or a well-formed file whose traits entry is the input. A Binoban instance restores its
// identity from it, then reads, identifies and resets. Nothing may trap.

private let file = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("sdk-core-fuzz-identity-\(getpid()).json")

/// Runs one input (what it covers is at the top of this file); always returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIdentityFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let wrap = input.bool()
    let rest = input.rest()
    let contents: Data
    if wrap {
        let traits = String(decoding: rest, as: UTF8.self)
        let entries: JSONValue = [
            "anonymousId": "a", "userId": "u", "traits": .string(traits), "deviceId": "d", "applicationBuild": "1",
        ]
        contents = Data(entries.jsonString().utf8)
    } else {
        contents = Data(rest)
    }
    _ = FileManager.default.createFile(atPath: file.path, contents: contents)
    let store = FileKeyValueStore(fileURL: file)
    _ = try? store.load()
    let binoban = BinobanFactory.shared.create(apiKey: "KEY", sourceIdentifier: "SOURCE") { config in
        config.apiHost = "127.0.0.1:9"
        config.keyValueStore = store
        config.storage = InMemoryEventStorage()
        config.startsAutomatically = false
        config.trackApplicationLifecycleEvents = false
        config.errorHandler = { error in _ = error.description }
    }
    _ = binoban.anonymousId()
    _ = binoban.userId()
    _ = binoban.traits().jsonString()
    _ = binoban.deviceId()
    binoban.identify(userId: "u2", traits: ["plan": "pro"])
    binoban.track(name: "e", properties: ["k": 1])
    binoban.reset()
    // The input's whole life runs before the next one: the pipeline's work (the identity saves, the final drain)
    // ends here, so nothing of one input is still in flight when the next starts or the process exits and the
    // leak check scans the heap.
    let stopped = DispatchSemaphore(value: 0)
    Task {
        _ = await binoban.shutdown(gracePeriod: .zero)
        stopped.signal()
    }
    stopped.wait()
    return 0
}
