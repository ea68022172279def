// The only TestSupport file that talks to libc sockets. Linux only, like the project.
import Foundation
import Glibc

/// Thin wrappers over the POSIX socket calls the loopback server needs.
enum Socket {
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    /// A listening TCP socket on 127.0.0.1 and the ephemeral port the kernel gave it.
    static func listenOnLoopback(backlog: Int32 = 64) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { let e = errno; close(fd); throw Failure(call: "bind", code: e) }
        guard listen(fd, backlog) == 0 else { let e = errno; close(fd); throw Failure(call: "listen", code: e) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { let e = errno; close(fd); throw Failure(call: "getsockname", code: e) }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A loopback port nothing listens on: bound, read and released, so a connect is refused.
    static func closedLoopbackPort() throws -> Int {
        let (fd, port) = try listenOnLoopback()
        close(fd)
        return port
    }

    /// The next connection, or nil once the listening socket is shut down.
    static func accept(_ fd: Int32) -> Int32? {
        while true {
            let client = Glibc.accept(fd, nil, nil)
            if client >= 0 { return client }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }

    /// Reads up to and including the blank line that ends a request head; returns the head without
    /// it and whatever of the body came in the same reads, or nil if the peer closed first or sent
    /// more than `limit` bytes of head.
    static func readHead(_ fd: Int32, limit: Int = 64 * 1024) -> (head: Data, bodyStart: Data)? {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let terminator = Data("\r\n\r\n".utf8)
        while received.count < limit {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            received.append(contentsOf: buffer[0..<n])
            if let end = received.range(of: terminator) {
                return (received.subdata(in: received.startIndex..<end.lowerBound), received.subdata(in: end.upperBound..<received.endIndex))
            }
        }
        return nil
    }

    /// `start` and then the rest of a body of `length` bytes; what arrived when the peer closes early.
    static func readBody(_ fd: Int32, start: Data, length: Int) -> Data {
        var received = start.prefix(length)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < length {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, length - received.count), 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
        }
        return Data(received)
    }

    /// Blocks until the peer closes or the socket is shut down, discarding anything it sends.
    static func drainUntilClosed(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
        }
    }

    /// Writes all of `data` unless the peer goes away; returns the bytes written. MSG_NOSIGNAL keeps
    /// a vanished client from killing the test process with SIGPIPE.
    @discardableResult
    static func send(_ fd: Int32, _ data: Data) -> Int {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 { if errno == EINTR { continue }; return offset }
                offset += n
            }
            return offset
        }
    }

    /// Makes the coming close send a TCP RST instead of a FIN.
    static func resetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    static func shutdownBoth(_ fd: Int32) { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    static func close(_ fd: Int32) { _ = Glibc.close(fd) }
}
