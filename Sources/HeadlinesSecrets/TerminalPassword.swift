import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// The password `headlines login` stores: typed on the terminal, which does not echo it (the
/// echo comes back even when the command is interrupted), or the first line of stdin when that
/// is not a terminal (`pass show freshrss | headlines login greader`).
public enum TerminalPassword {
    public static let limit = 4096

    public enum Problem: Error, Equatable {
        case empty, tooLong, unreadable(errno: Int32)

        public var sentence: String {
            switch self {
            case .empty: return "no password was given, so nothing was stored."
            case .tooLong: return "the password is longer than \(limit / 1024) KiB, so nothing was stored; give only the password."
            case let .unreadable(code): return "cannot read the password from standard input (\(String(cString: strerror(code))))."
            }
        }
    }

    /// Whether the password is typed on a terminal (rather than piped in).
    public static var isTyped: Bool { isatty(0) != 0 }

    public static func read(prompt: String) -> Result<String, Problem> {
        guard isatty(0) != 0, tcgetattr(0, &typedOn) == 0 else { return firstLine() }
        for signal in stoppingSignals { Glibc.signal(signal, restoreAndStop) }
        var quiet = typedOn
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(0, TCSAFLUSH, &quiet)
        // Only once the echo is off: whatever is typed after the prompt stays off the screen.
        DescriptorOutput.writeAll(Array(prompt.utf8), to: 2)
        let typed = firstLine()
        _ = tcsetattr(0, TCSAFLUSH, &typedOn)
        for signal in stoppingSignals { Glibc.signal(signal, SIG_DFL) }
        // The Enter the terminal did not echo.
        DescriptorOutput.writeAll(Array("\n".utf8), to: 2)
        return typed
    }

    /// Reads stdin up to its first newline (or its end), at most `limit` bytes. Also how the reload
    /// child reads the token its host hands it (`SyncSignIn.tokenFromHost`).
    public static func firstLine() -> Result<String, Problem> {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !bytes.contains(UInt8(ascii: "\n")) {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(.unreadable(errno: errno)) }
            if n == 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > limit && !bytes.prefix(limit).contains(UInt8(ascii: "\n")) { return .failure(.tooLong) }
        }
        guard let password = PasswordText.firstLine(bytes) else { return .failure(.empty) }
        return .success(password)
    }

    private static let stoppingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
}

/// The terminal's settings before the echo was turned off, for the signal handler to put back:
/// a global, as a C signal handler captures nothing.
nonisolated(unsafe) private var typedOn = termios()

/// Puts the echo back, then dies of the signal as if nothing had been caught.
private let restoreAndStop: @convention(c) (Int32) -> Void = { signal in
    _ = tcsetattr(0, TCSANOW, &typedOn)
    Glibc.signal(signal, SIG_DFL)
    raise(signal)
}
