import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 for tests: routes answer with scripted behaviours (honest
/// responses, silence, trickles, resets, short bodies), every request is recorded, and every
/// connection gets its own thread so one that hangs never blocks the next.
///
/// Threads: `start` spawns the accept thread; each connection runs on a thread of its own. All
/// shared state is behind `lock`. `stop` shuts the listening socket and every open connection; the
/// threads then close their own descriptors, so no descriptor is closed twice. The accept thread
/// keeps the server alive until `stop` is called: call it in tearDown.
public final class LoopbackHTTPServer: @unchecked Sendable {
    private let lock = NSLock()
    private var routes: [String: Route] = [:]
    private var recorded: [RecordedRequest] = []
    private var openConnections: Set<Int32> = []
    private var listenFD: Int32 = -1
    private var port = 0
    private var stopped = false
    private let acceptDone = DispatchSemaphore(value: 0)

    private struct Route {
        var behaviour: Behaviour
        var gzip: Bool
        var served = 0
    }

    public init() {}

    deinit { stop() }

    /// Binds an ephemeral loopback port and starts accepting. Returns the port.
    @discardableResult
    public func start() throws -> Int {
        let (fd, port) = try Socket.listenOnLoopback()
        lock.withLock { self.listenFD = fd; self.port = port }
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "LoopbackHTTPServer.accept"
        thread.start()
        return port
    }

    /// Stops accepting and cuts every open connection (a `.neverAnswer` one included).
    public func stop() {
        // Shut down under the lock: a connection thread removes its descriptor under the same lock
        // before closing it, so a descriptor number reused elsewhere is never touched.
        let wasRunning = lock.withLock { () -> Bool in
            let wasRunning = !stopped && listenFD >= 0
            stopped = true
            if wasRunning {
                Socket.shutdownBoth(listenFD)
                openConnections.forEach(Socket.shutdownBoth)
            }
            return wasRunning
        }
        guard wasRunning else { return }
        _ = acceptDone.wait(timeout: .now() + 5)
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(lock.withLock { port })")! }

    /// Every request so far, in arrival order.
    public var requests: [RecordedRequest] { lock.withLock { recorded } }

    /// Sets what a path answers; `gzip` compresses bodies for clients that accept it.
    public func route(_ path: String, _ behaviour: Behaviour, gzip: Bool = false) {
        lock.withLock { routes[path] = Route(behaviour: behaviour, gzip: gzip) }
    }

    // MARK: - Connection handling

    private func acceptLoop(_ fd: Int32) {
        defer { Socket.close(fd); acceptDone.signal() }
        while let client = Socket.accept(fd) {
            let accepted = lock.withLock { () -> Bool in
                guard !stopped else { return false }
                openConnections.insert(client)
                return true
            }
            guard accepted else { Socket.close(client); break }
            let thread = Thread { [self] in
                serve(client)
                lock.withLock { _ = openConnections.remove(client) }
                Socket.close(client)
            }
            thread.name = "LoopbackHTTPServer.connection"
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        guard let read = Socket.readHead(fd), let head = RequestHead.parse(read.head) else { return }
        // A request that writes (a POST or PUT with a body) is recorded with its body.
        let body = Socket.readBody(fd, start: read.bodyStart, length: head.contentLength)
        let (behaviour, gzip, index) = lock.withLock { () -> (Behaviour, Bool, Int) in
            let index = recorded.count
            recorded.append(head.record(body: body, bytesSent: 0))
            guard var route = routes[head.path] else {
                return (.respond(status: 404, headers: ["Content-Type": "text/plain"], body: Data("not found\n".utf8)), false, index)
            }
            let behaviour = route.behaviour.resolved(forRequest: route.served)
            route.served += 1
            routes[head.path] = route
            return (behaviour, route.gzip, index)
        }
        let compress = gzip && head.acceptsGzip
        let sent = perform(behaviour, on: fd, compress: compress) { planned in
            // Record what we are about to write before writing it, so that a client that has read
            // the whole response already sees the count.
            lock.withLock { recorded[index].bytesSent = planned }
        }
        lock.withLock { recorded[index].bytesSent = sent }
    }

    /// Carries out one behaviour; returns the bytes written.
    private func perform(_ behaviour: Behaviour, on fd: Int32, compress: Bool, announce: (Int) -> Void) -> Int {
        func encoded(_ body: Data, _ headers: [String: String]) -> (Data, [String: String]) {
            guard compress, let gz = Gzip.compress(body) else { return (body, headers) }
            return (gz, headers.merging(["Content-Encoding": "gzip", "Vary": "Accept-Encoding"]) { _, new in new })
        }
        switch behaviour {
        case let .respond(status, headers, body):
            let (payload, allHeaders) = encoded(body, headers)
            let wire = ResponseHead.make(status: status, headers: allHeaders, contentLength: payload.count) + payload
            announce(wire.count)
            return Socket.send(fd, wire)
        case .neverAnswer:
            Socket.drainUntilClosed(fd)
            return 0
        case let .trickle(status, body, bytesPerSecond):
            let (payload, headers) = encoded(body, [:])
            let head = ResponseHead.make(status: status, headers: headers, contentLength: payload.count)
            announce(head.count + payload.count)
            var sent = Socket.send(fd, head)
            let step = max(1, bytesPerSecond / 10)
            var offset = payload.startIndex
            while offset < payload.endIndex, !lock.withLock({ stopped }) {
                let end = min(offset + step, payload.endIndex)
                let n = Socket.send(fd, payload.subdata(in: offset..<end))
                sent += n
                if n < end - offset { break }
                offset = end
                if offset < payload.endIndex { Thread.sleep(forTimeInterval: Double(step) / Double(max(bytesPerSecond, 1))) }
            }
            return sent
        case let .resetMidBody(status, body):
            let head = ResponseHead.make(status: status, headers: [:], contentLength: body.count)
            let wire = head + body.prefix(body.count / 2)
            announce(wire.count)
            let sent = Socket.send(fd, wire)
            Thread.sleep(forTimeInterval: 0.05)
            Socket.resetOnClose(fd)
            return sent
        case let .truncated(status, body, claimedLength):
            let wire = ResponseHead.make(status: status, headers: [:], contentLength: claimedLength) + body
            announce(wire.count)
            return Socket.send(fd, wire)
        case let .unframed(status, body):
            let wire = ResponseHead.make(status: status, headers: [:], contentLength: nil) + body
            announce(wire.count)
            return Socket.send(fd, wire)
        case let .endless(status, headers, prefix, repeating):
            let head = ResponseHead.make(status: status, headers: headers, contentLength: nil) + prefix
            var sent = Socket.send(fd, head)
            // Bigger writes, so the loop is not one system call per few bytes.
            let unit = Data(repeating.count >= 65536 ? repeating : Data(repeatElement(repeating, count: max(1, 65536 / max(repeating.count, 1))).joined()))
            while sent >= head.count, !lock.withLock({ stopped }) {
                let n = Socket.send(fd, unit)
                sent += n
                if n < unit.count { break }
            }
            return sent
        case let .raw(wire):
            announce(wire.count)
            return Socket.send(fd, wire)
        case .sequence:
            preconditionFailure("sequences are resolved before perform")
        }
    }

    /// A loopback port with nothing listening, for "connection refused".
    public static func closedPort() throws -> Int { try Socket.closedLoopbackPort() }
}
