// Beside Platform.swift: a closed pipe on stdout or stderr must be an error code, never a signal.
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to stdout or stderr that survive a reader that left (`| head -1`, a `tee` killed by
/// Ctrl-C): SIGPIPE is blocked on this thread for the write and a SIGPIPE the write raised is
/// consumed, so the write fails with EPIPE instead of killing the process, whatever SIGPIPE's
/// disposition (the fetch child starts with it at its default). Any thread.
public enum DescriptorOutput {
    /// Writes all of `bytes` to `fd` (blocking); returns 0, or the errno of the write that failed.
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        withBrokenPipeAsError {
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return 0
        }
    }

    /// Runs `body` (which writes to a pipe) with SIGPIPE blocked; a SIGPIPE it raised is taken
    /// off the pending set before the old mask returns, so it is never delivered.
    public static func withBrokenPipeAsError<T>(_ body: () -> T) -> T {
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        var pending = sigset_t()
        sigpending(&pending)
        // A SIGPIPE already pending is someone else's: leave it for them.
        let alreadyPending = sigismember(&pending, SIGPIPE) == 1
        let result = body()
        if !alreadyPending {
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeOnly, nil, &now)
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result
    }
}
