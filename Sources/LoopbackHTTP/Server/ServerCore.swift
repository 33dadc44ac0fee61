import Dispatch
import SDKCoreCommon

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The running part of a ``LoopbackHTTPServer``: one accept thread, one thread per connection, all of them
/// polling a shared ``StopSignal`` so that `stop()` can end them and wait for them.
///
/// The public server object owns this core; the threads hold the core, not the server, so a server that is
/// released without `stop()` still stops in its `deinit`.
final class ServerCore: Sendable {
    let configuration: LoopbackHTTPServer.Configuration
    let state: LockedValue<ServerState>
    /// Entered once per running thread, left as the thread's last action; `stop()` waits on it.
    private let threads = DispatchGroup()

    private static let lingerMilliseconds: Int32 = 1000
    private static let readChunkBytes = 64 * 1024

    init(responder: LoopbackHTTPResponder, configuration: LoopbackHTTPServer.Configuration) {
        self.configuration = configuration
        state = LockedValue(ServerState(responder: responder))
    }

    // MARK: - Lifecycle

    func start() throws(LoopbackHTTPError) -> UInt16 {
        let result = state.withLock { state -> Result<UInt16, LoopbackHTTPError> in
            switch state.lifecycle {
            case .running: return .failure(.alreadyStarted)
            case .stopped: return .failure(.alreadyStopped)
            case .idle: break
            }
            do throws(LoopbackHTTPError) {
                let (listener, port) = try SocketCalls.makeLoopbackListener(port: configuration.port, backlog: 128)
                let stopSignal: StopSignal
                do throws(LoopbackHTTPError) {
                    stopSignal = try StopSignal.make()
                } catch {
                    SocketCalls.closeDescriptor(listener)
                    throw error
                }
                threads.enter()
                let started = DetachedThread.start { [self] in
                    acceptLoop(listener: listener, stopSignal: stopSignal)
                }
                guard started else {
                    threads.leave()
                    SocketCalls.closeDescriptor(listener)
                    stopSignal.close()
                    throw LoopbackHTTPError.systemCallFailed("pthread_create", errno: errno)
                }
                state.lifecycle = .running(listener: listener, stopSignal: stopSignal, port: port)
                return .success(port)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    func stop() {
        let (resources, waiters, received) = state.withLock { state in
            var resources: (Int32, StopSignal)?
            switch state.lifecycle {
            case .idle:
                state.lifecycle = .stopped(port: nil)
            case .running(let listener, let stopSignal, let port):
                state.lifecycle = .stopped(port: port)
                resources = (listener, stopSignal)
            case .stopped:
                break
            }
            let waiters = Array(state.waiters.values)
            state.waiters = [:]
            return (resources, waiters, state.arrivedCount)
        }
        for waiter in waiters {
            waiter.timeout?.cancel()
            waiter.continuation.resume(
                throwing: LoopbackHTTPError.stoppedWhileWaiting(expected: waiter.count, received: received)
            )
        }
        if let (listener, stopSignal) = resources {
            stopSignal.fire()
            threads.wait()
            SocketCalls.closeDescriptor(listener)
            stopSignal.close()
        } else {
            threads.wait()
        }
    }

    // MARK: - Waiting for requests

    func addWaiter(
        id: Int,
        count: Int,
        timeout: Duration,
        continuation: CheckedContinuation<[LoopbackHTTPRequest], any Error>
    ) {
        enum Outcome {
            case ready([LoopbackHTTPRequest])
            case failed(any Error)
            case waiting
        }
        let outcome = state.withLock { state -> Outcome in
            if state.cancelledWaiters.remove(id) != nil { return .failed(CancellationError()) }
            if state.arrivedCount >= count { return .ready(state.requests) }
            if case .stopped = state.lifecycle {
                return .failed(LoopbackHTTPError.stoppedWhileWaiting(expected: count, received: state.arrivedCount))
            }
            state.waiters[id] = ServerState.Waiter(count: count, continuation: continuation, timeout: nil)
            return .waiting
        }
        switch outcome {
        case .ready(let requests):
            continuation.resume(returning: requests)
        case .failed(let error):
            continuation.resume(throwing: error)
        case .waiting:
            let timer = Task.detached { [self] in
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return
                }
                failWaiter(id: id) { .timedOut(expected: count, received: $0) }
            }
            let stillWaiting = state.withLock { state -> Bool in
                guard state.waiters[id] != nil else { return false }
                state.waiters[id]?.timeout = timer
                return true
            }
            if !stillWaiting { timer.cancel() }
        }
    }

    func cancelWaiter(id: Int) {
        let waiter = state.withLock { state -> ServerState.Waiter? in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                state.cancelledWaiters.insert(id)
                return nil
            }
            return waiter
        }
        guard let waiter else { return }
        waiter.timeout?.cancel()
        waiter.continuation.resume(throwing: CancellationError())
    }

    /// Forgets the cancellation mark of a waiter that finished without seeing it.
    func forgetWaiter(id: Int) {
        state.withLock { _ = $0.cancelledWaiters.remove(id) }
    }

    private func failWaiter(id: Int, error: (Int) -> LoopbackHTTPError) {
        let found = state.withLock { state -> (ServerState.Waiter, Int)? in
            guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
            return (waiter, state.arrivedCount)
        }
        guard let (waiter, received) = found else { return }
        waiter.continuation.resume(throwing: error(received))
    }

    // MARK: - Accepting

    private func acceptLoop(listener: Int32, stopSignal: StopSignal) {
        defer { threads.leave() }
        while true {
            switch SocketCalls.wait(for: listener, stopSignal: stopSignal.readDescriptor) {
            case .stopRequested:
                return
            case .ready:
                break
            case .timedOut, .failed:
                if pause(stopSignal) { return }
                continue
            }
            let (accepted, failure) = SocketCalls.acceptConnection(listener)
            guard let fd = accepted else {
                let transient = [EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED, 0].contains(failure)
                // Out of descriptors or buffers: back off instead of spinning on a readable listener.
                if !transient && pause(stopSignal) { return }
                continue
            }
            let connectionIndex = state.withLock { state -> Int? in
                guard state.openConnections < configuration.maxConnections else { return nil }
                state.openConnections += 1
                defer { state.acceptedConnections += 1 }
                return state.acceptedConnections
            }
            guard let connectionIndex else {
                let refusal = ResponseSerializer.errorBytes(status: 503)
                // A fresh socket's buffer takes these few bytes at once; the short timeout keeps a client that
                // somehow does not from ever holding up the accept loop.
                _ = refusal.withUnsafeBytes {
                    SocketCalls.writeAll(
                        $0, to: fd, stopSignal: stopSignal.readDescriptor,
                        idleTimeoutMilliseconds: Self.lingerMilliseconds)
                }
                SocketCalls.closeDescriptor(fd)
                continue
            }
            threads.enter()
            let started = DetachedThread.start { [self] in
                serve(fd, connectionIndex: connectionIndex, stopSignal: stopSignal.readDescriptor)
            }
            if !started {
                state.withLock { $0.openConnections -= 1 }
                threads.leave()
                SocketCalls.closeDescriptor(fd)
            }
        }
    }

    /// Waits briefly unless a stop arrives; `true` when the thread should end.
    private func pause(_ stopSignal: StopSignal) -> Bool {
        let pipe = stopSignal.readDescriptor
        if case .stopRequested = SocketCalls.wait(for: pipe, stopSignal: pipe, timeoutMilliseconds: 50) {
            return true
        }
        return false
    }

    // MARK: - Serving one connection

    private func serve(_ fd: Int32, connectionIndex: Int, stopSignal: Int32) {
        defer {
            state.withLock { $0.openConnections -= 1 }
            threads.leave()
        }
        var parser = HTTPRequestParser(
            limits: .init(maxHeadBytes: configuration.maxHeadBytes, maxBodyBytes: configuration.maxBodyBytes)
        )
        let idleMilliseconds = idleMilliseconds
        let headMilliseconds = max(1, Self.milliseconds(configuration.headTimeout))
        let clock = ContinuousClock()
        // When the head being read got its first byte: the head deadline counts from there.
        var headStarted: ContinuousClock.Instant?
        var chunk = [UInt8](repeating: 0, count: Self.readChunkBytes)
        while true {
            switch parser.nextEvent() {
            case .needMoreData:
                var timeout = idleMilliseconds
                if parser.isReadingHead && parser.isInsideRequest {
                    let started = headStarted ?? clock.now
                    headStarted = started
                    let left = headMilliseconds - Self.milliseconds(started.duration(to: clock.now))
                    timeout = max(0, min(timeout, left))
                } else {
                    headStarted = nil
                }
                let wait: SocketCalls.Readiness =
                    timeout == 0
                    ? .timedOut : SocketCalls.wait(for: fd, stopSignal: stopSignal, timeoutMilliseconds: timeout)
                switch wait {
                case .ready:
                    break
                case .timedOut where parser.isInsideRequest:
                    _ = write(ResponseSerializer.errorBytes(status: 408), to: fd, stopSignal: stopSignal)
                    SocketCalls.lingeringClose(fd, stopSignal: stopSignal, timeoutMilliseconds: Self.lingerMilliseconds)
                    return
                case .timedOut, .stopRequested, .failed:
                    SocketCalls.closeDescriptor(fd)
                    return
                }
                let count = chunk.withUnsafeMutableBytes { SocketCalls.readSome(from: fd, into: $0) }
                if count > 0 {
                    chunk.withUnsafeBytes { parser.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                    continue
                } else {
                    SocketCalls.closeDescriptor(fd)
                    return
                }
            case .sendContinue:
                guard write(ResponseSerializer.continueBytes, to: fd, stopSignal: stopSignal) else {
                    SocketCalls.closeDescriptor(fd)
                    return
                }
            case .failure(let status):
                _ = write(ResponseSerializer.errorBytes(status: status), to: fd, stopSignal: stopSignal)
                SocketCalls.lingeringClose(fd, stopSignal: stopSignal, timeoutMilliseconds: Self.lingerMilliseconds)
                return
            case .request(let parsed):
                let response = answer(parsed, connectionIndex: connectionIndex)
                if response.closesConnectionWithoutAnswer {
                    SocketCalls.closeDescriptor(fd)
                    return
                }
                let closing = !parsed.keepAlive || ResponseSerializer.requestsClose(response)
                let bytes = ResponseSerializer.bytes(
                    for: response,
                    requestMethod: parsed.method,
                    requestVersion: parsed.version,
                    closing: closing
                )
                guard write(bytes, to: fd, stopSignal: stopSignal) else {
                    SocketCalls.closeDescriptor(fd)
                    return
                }
                if closing {
                    SocketCalls.lingeringClose(
                        fd,
                        stopSignal: stopSignal,
                        timeoutMilliseconds: Self.lingerMilliseconds
                    )
                    return
                }
            }
        }
    }

    /// Records the request, wakes the waiters it satisfies and produces the answer.
    private func answer(_ parsed: HTTPRequestParser.ParsedRequest, connectionIndex: Int) -> LoopbackHTTPResponse {
        let full = LoopbackHTTPRequest(
            arrivalIndex: 0,
            connectionIndex: connectionIndex,
            method: parsed.method,
            target: parsed.target,
            version: parsed.version,
            headers: parsed.headers,
            body: Data(parsed.body)
        )
        let recordsBodies = configuration.recordsBodies
        let (request, answer, satisfied, snapshot) = state.withLock { state in
            var request = full
            request.arrivalIndex = state.arrivedCount
            state.arrivedCount += 1
            if recordsBodies {
                state.requests.append(request)
            } else {
                var recorded = request
                recorded.body = Data()
                state.requests.append(recorded)
            }
            let satisfied = state.takeSatisfiedWaiters()
            return (request, state.nextAnswer(), satisfied, satisfied.isEmpty ? [] : state.requests)
        }
        for waiter in satisfied {
            waiter.timeout?.cancel()
            waiter.continuation.resume(returning: snapshot)
        }
        switch answer {
        case .fixed(let response):
            return response
        case .computed(let handler):
            return handler(request)
        }
    }

    /// Writes all of `bytes`; `false` when the client went away, stopped reading for the idle timeout, or a
    /// stop was requested.
    private func write(_ bytes: [UInt8], to fd: Int32, stopSignal: Int32) -> Bool {
        bytes.withUnsafeBytes {
            SocketCalls.writeAll($0, to: fd, stopSignal: stopSignal, idleTimeoutMilliseconds: idleMilliseconds)
        }
    }

    /// ``LoopbackHTTPServer/Configuration/idleTimeout`` in whole milliseconds for `poll`, at least one.
    private var idleMilliseconds: Int32 { max(1, Self.milliseconds(configuration.idleTimeout)) }

    /// `duration` in whole milliseconds for `poll`, between 0 and `Int32.max`.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let components = duration.components
        guard components.seconds < Int64(Int32.max / 1000) else { return Int32.max }
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return Int32(max(0, milliseconds))
    }
}
