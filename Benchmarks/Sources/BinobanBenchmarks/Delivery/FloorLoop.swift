import Foundation

#if os(Linux)
import Glibc

/// `BENCH_FLOOR=1` with `BENCH_MODE=one-at-a-time`: the least any client can do per event with the SDK's shape of
/// hand-off, to compare the SDK's figure with (Linux only).
///
/// The caller appends a prebuilt 350-byte event (its `index` patched in, no JSON encoding) to a buffer under a
/// mutex. The first event after the loop went idle arms a one-shot `timerfd` 5 ms ahead, as the SDK's intake does
/// (Decision 0230); later ones only append. One thread waits on the timer with `poll`, reads it, takes the buffer and
/// writes it to a file with one `write`. No batch files are turned over, nothing is uploaded, nothing is counted,
/// so the figure is what the wake-ups, the timer and the `write` cost on this machine: the part of the SDK's cost
/// per event that only fewer wake-ups or fewer system calls can remove.
///
/// `@unchecked Sendable`: `pending`, `armed` and `stopping` are reached only with `mutex` held; the file and the
/// timer are written once, before the thread starts.
final class FloorLoop: @unchecked Sendable {
    private typealias TimerCreate = @convention(c) (Int32, Int32) -> Int32
    private typealias TimerSet =
        @convention(c) (Int32, Int32, UnsafePointer<itimerspec>?, UnsafeMutablePointer<itimerspec>?) -> Int32

    private var mutex = pthread_mutex_t()
    private var pending: [UInt8] = []
    private var armed = false
    private var stopping = false
    private let timer: Int32
    private let file: Int32
    private let arm: TimerSet
    private let template: [UInt8]
    private let indexOffset: Int
    private let done = DispatchSemaphore(value: 0)

    /// A loop writing to a new file `floor.log` in `directory` (created if needed), or nil where `timerfd` is not
    /// available.
    init?(directory: String) {
        // Glibc's Swift module does not offer <sys/timerfd.h>; the functions are looked up in the C library.
        guard let create = dlsym(nil, "timerfd_create"), let set = dlsym(nil, "timerfd_settime") else { return nil }
        let timerCreate = unsafeBitCast(create, to: TimerCreate.self)
        arm = unsafeBitCast(set, to: TimerSet.self)
        timer = timerCreate(CLOCK_MONOTONIC, Int32(O_CLOEXEC | O_NONBLOCK))
        mkdir(directory, 0o700)
        file = open(directory + "/floor.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard timer >= 0, file >= 0 else {
            if timer >= 0 { close(timer) }
            if file >= 0 { close(file) }
            return nil
        }
        var event = Array(
            (#"{"type":"track","event":"purchase","userId":"user-00","properties":{"item":"shoes","price":49.99,"#
                + #""index":0000000000},"context":{"library":{"name":"binoban-swift","version":"0.0.0"}},"#
                + #""messageId":"00000000-0000-4000-8000-000000000000","timestamp":"2026-12-06T00:00:00.000Z","#
                + #""sentAt":"2026-12-06T00:00:00.000Z","integrations":{},"#).utf8)
        event += Array(repeating: UInt8(ascii: " "), count: max(0, 349 - event.count))
        event += Array("}\n".utf8)
        template = event
        let digits = Array("0000000000".utf8)
        indexOffset = event.indices.first { event[$0...].starts(with: digits) } ?? 0
        pthread_mutex_init(&mutex, nil)
        pending.reserveCapacity(64 * 1024)
        Thread.detachNewThread { [self] in run() }
    }

    /// Hands over one event: appended under the lock; the first after an idle spell arms the timer 5 ms ahead.
    func track(index: Int) {
        var event = template
        var value = index
        var position = indexOffset + 9
        while position >= indexOffset {
            event[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
            position -= 1
        }
        pthread_mutex_lock(&mutex)
        pending += event
        let armNow = !armed
        armed = true
        if armNow {
            var spec = itimerspec(
                it_interval: timespec(tv_sec: 0, tv_nsec: 0), it_value: timespec(tv_sec: 0, tv_nsec: 5_000_000))
            _ = arm(timer, 0, &spec, nil)
        }
        pthread_mutex_unlock(&mutex)
    }

    /// Stops the loop after its next turn and waits for it.
    func stop() {
        pthread_mutex_lock(&mutex)
        stopping = true
        var spec = itimerspec(it_interval: timespec(tv_sec: 0, tv_nsec: 0), it_value: timespec(tv_sec: 0, tv_nsec: 1))
        _ = arm(timer, 0, &spec, nil)
        pthread_mutex_unlock(&mutex)
        done.wait()
        close(timer)
        close(file)
    }

    private func run() {
        var taken: [UInt8] = []
        taken.reserveCapacity(64 * 1024)
        var expirations: UInt64 = 0
        while true {
            var descriptor = pollfd(fd: timer, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, -1)
            _ = read(timer, &expirations, 8)
            pthread_mutex_lock(&mutex)
            swap(&taken, &pending)
            armed = false
            let stop = stopping
            pthread_mutex_unlock(&mutex)
            if !taken.isEmpty {
                _ = taken.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
                taken.removeAll(keepingCapacity: true)
            }
            if stop { break }
        }
        done.signal()
    }
}
#else
/// `BENCH_FLOOR=1` needs Linux's `timerfd`; elsewhere the mode is not available.
final class FloorLoop: Sendable {
    /// Always nil here.
    init?(directory: String) { nil }
    /// Not reached.
    func track(index: Int) {}
    /// Not reached.
    func stop() {}
}
#endif
