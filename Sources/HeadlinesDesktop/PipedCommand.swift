import CGLibNotify
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program from an argv (searched on PATH, never through a shell), writes `input` to its
/// stdin, and returns what it printed on stdout and whether it exited with status 0. Its stderr
/// is ours. Blocks the calling thread until the program exits (it is a menu a person answers).
enum PipedCommand {
    struct Outcome {
        enum Exit: Equatable { case status(Int32), signal(Int32) }
        var exit: Exit
        var output: String
    }

    /// At most this much of the program's stdout is kept; the rest is read and dropped so the
    /// program never blocks on a full pipe.
    static let outputLimit = 64 * 1024

    static func run(_ argv: [String], input: String) throws(SpawnError) -> Outcome {
        precondition(!argv.isEmpty, "PipedCommand.run needs a program")
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: GPid = 0
        var stdinFD: Int32 = -1, stdoutFD: Int32 = -1
        var error: UnsafeMutablePointer<GError>?
        let flags = GSpawnFlags(rawValue: G_SPAWN_SEARCH_PATH.rawValue | G_SPAWN_DO_NOT_REAP_CHILD.rawValue)
        guard g_spawn_async_with_pipes(nil, &cArgs, nil, flags, nil, nil, &pid, &stdinFD, &stdoutFD, nil, &error) != 0 else {
            let why = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw SpawnError(message: why)
        }
        // A program that exits without reading its input must not kill us with SIGPIPE.
        let previous = signal(SIGPIPE, SIG_IGN)
        writeAll(stdinFD, Array(input.utf8))
        close(stdinFD)
        signal(SIGPIPE, previous)
        let output = readAll(stdoutFD)
        close(stdoutFD)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        g_spawn_close_pid(pid)
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let exit: Outcome.Exit = status & 0x7f == 0 ? .status((status >> 8) & 0xff) : .signal(status & 0x7f)
        return Outcome(exit: exit, output: String(decoding: output, as: UTF8.self))
    }

    struct SpawnError: Error { var message: String }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }

    private static func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; break }
            if n == 0 { break }
            if out.count < outputLimit { out += buffer[0..<min(n, outputLimit - out.count)] }
        }
        return out
    }
}
