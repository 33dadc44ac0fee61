import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Message ids read back from a stored batch")
struct BatchMessageIDsTests {
    @Test("Only the top-level messageId of each event counts, escaped ids are decoded")
    func topLevelOnly() {
        let body = #"""
            {"type":"track","event":"a","properties":{"messageId":"inner","list":[{"messageId":"deeper"}]},"messageId":"id-1","timestamp":"t"},{"messageId":"id\"2\u0041","context":{"messageId":"ctx"}},{"type":"identify","traits":{}}
            """#
        #expect(BatchMessageIDs.messageIds(in: Data(body.utf8)) == ["id-1", "id\"2A"])
    }

    @Test("A body the encoder wrote gives back each event's id in order")
    func encoderBody() {
        let encoder = EventEncoder(context: FixedContextProvider().staticContext(), deviceId: nil)
        let ids = (0..<3).map { MessageID(high: UInt64($0), low: 99) }
        let events = ids.map {
            encoder.encode(
                PendingEvent(
                    kind: .track, name: "n", payload: ["messageId": "no"], messageId: $0, timestampMillis: 0,
                    anonymousId: "anon", userId: nil, deviceToken: nil))
        }
        var body = Data()
        for (index, event) in events.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(event)
        }
        #expect(BatchMessageIDs.messageIds(in: body) == ids.map(\.text))
    }
}
