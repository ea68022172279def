import CBarSys
import Glibc

/// The bar's stdout, non-blocking: a line goes out with one write(2) when the pipe has room; when
/// it has not, only the newest line waits for POLLOUT (a reader that stops reading loses lines;
/// this process never blocks). A line cut short by a partial write is finished before the next
/// one starts, so the reader never sees half a line followed by another.
struct StdoutWriter {
    private(set) var lastQueued: [UInt8]?
    private var inFlight: [UInt8] = []
    private var inFlightOffset = 0
    private var next: [UInt8]?

    enum Outcome { case ok, gone }

    init() { _ = cbs_set_nonblock(1) }

    /// Whether poll should wait for POLLOUT.
    var hasPending: Bool { inFlightOffset < inFlight.count || next != nil }

    /// Queues `line` unless it is the very bytes last queued, then writes what the pipe takes.
    mutating func send(_ line: [UInt8]) -> Outcome {
        guard line != lastQueued else { return .ok }
        lastQueued = line
        if inFlightOffset < inFlight.count { next = line } else { start(line) }
        return flush()
    }

    /// Writes until done or EAGAIN; `.gone` on EPIPE or any other write error.
    mutating func flush() -> Outcome {
        while true {
            if inFlightOffset >= inFlight.count {
                guard let line = next else { return .ok }
                next = nil
                start(line)
            }
            let n = inFlight.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + inFlightOffset, $0.count - inFlightOffset) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return .ok }
                return .gone
            }
            inFlightOffset += n
        }
    }

    private mutating func start(_ line: [UInt8]) {
        inFlight = line
        inFlightOffset = 0
    }
}
