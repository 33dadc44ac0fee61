import FalconCore
import Foundation
import Testing

@Suite("Session ids")
struct FalconUUIDSourceTests {
    /// Every id reads back as a UUID, spelled as `UUID().uuidString` spells it (upper case, 8-4-4-4-12), with
    /// the version 4 and RFC 4122 variant bits, and no two are alike.
    @Test func idsAreRandomVersion4UUIDStrings() throws {
        let source = FalconUUIDSource()
        var seen: Set<String> = []
        for _ in 0..<10_000 {
            let id = source.makeSessionID()
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString == id)
            let characters = Array(id)
            #expect(characters[14] == "4")
            #expect("89AB".contains(characters[19]))
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
    }

    /// Ids taken on several threads at once (from the shared pool of random bytes, refilled every 16 ids on
    /// Linux) are all distinct: no two threads get the same bytes.
    @Test func idsTakenConcurrentlyAreDistinct() {
        let perThread = 2_500
        let threads = 4
        let collected = LockedValue<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let source = FalconUUIDSource()
            let ids = (0..<perThread).map { _ in source.makeSessionID() }
            collected.withLock { $0 += ids }
        }
        let all = collected.withLock { $0 }
        #expect(all.count == threads * perThread)
        #expect(Set(all).count == all.count)
    }
}
