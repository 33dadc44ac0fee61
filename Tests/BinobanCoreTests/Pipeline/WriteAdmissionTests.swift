import Testing

@testable import BinobanCore

@Suite("Write admission: wait for an upload or evict")
struct WriteAdmissionTests {
    @Test("A chunk that fits is written, whatever the uploads do")
    func roomMeansWrite() {
        var admission = WriteAdmission()
        #expect(admission.decide(hasRoom: true, uploadsPossible: true) == .write)
        admission.handle(.uploadFailed)
        #expect(admission.decide(hasRoom: true, uploadsPossible: true) == .write)
        #expect(admission.decide(hasRoom: true, uploadsPossible: false) == .write)
    }

    @Test("No room and uploads working: upload first (the caps bound an outage, not a burst)")
    func healthyWaits() {
        let admission = WriteAdmission()
        #expect(!admission.uploadsFailing)
        #expect(admission.decide(hasRoom: false, uploadsPossible: true) == .uploadFirst)
    }

    @Test("No room and uploads failing: write now and let the storage evict its oldest")
    func outageEvicts() {
        var admission = WriteAdmission()
        admission.handle(.uploadFailed)
        #expect(admission.uploadsFailing)
        #expect(admission.decide(hasRoom: false, uploadsPossible: true) == .write)
    }

    @Test("A batch that leaves storage after a failure ends the outage")
    func recovery() {
        var admission = WriteAdmission()
        admission.handle(.uploadFailed)
        admission.handle(.batchRemoved)
        #expect(!admission.uploadsFailing)
        #expect(admission.decide(hasRoom: false, uploadsPossible: true) == .uploadFirst)
        admission.handle(.batchRemoved)
        #expect(admission.decide(hasRoom: false, uploadsPossible: true) == .uploadFirst)
    }

    @Test("No room while uploads cannot run (paused, stopping, no transport): write now")
    func impossibleUploadsWrite() {
        let admission = WriteAdmission()
        #expect(admission.decide(hasRoom: false, uploadsPossible: false) == .write)
    }
}
