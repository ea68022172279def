import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// One line per event on stderr. Under systemd (JOURNAL_STREAM set) each line starts with the
/// sd-daemon priority prefix (`<6>` info, `<4>` warning, `<3>` error) that journald turns into the
/// entry's priority; elsewhere it starts with "headlines:". Never given the API key.
public enum HostLog {
    public enum Level: Int { case error = 3, warning = 4, info = 6 }
    static let underJournal = getenv("JOURNAL_STREAM") != nil

    public static func info(_ message: String) { write(.info, message) }
    public static func warning(_ message: String) { write(.warning, message) }
    public static func error(_ message: String) { write(.error, message) }

    static func write(_ level: Level, _ message: String) {
        let flat = TerminalText.safe(message.split(whereSeparator: \.isNewline).joined(separator: " "))
        let line: String
        if underJournal {
            line = "<\(level.rawValue)>\(flat)\n"
        } else {
            let tag = level == .info ? "" : level == .warning ? "warning: " : "error: "
            line = "headlines: \(tag)\(flat)\n"
        }
        // A log line must never stop the loop: when stderr is a pipe nobody reads (a suspended
        // bar, a `| less` left open), the line is dropped instead of waiting for room. Lines are
        // cut to one pipe buffer, so a write that poll allows completes at once. A reader that
        // left (`| head -1`) makes the write fail with EPIPE: the line is dropped and the process
        // lives on, even where SIGPIPE is at its default (the fetch child).
        var bytes = Array(line.utf8.prefix(4096))[...]
        DescriptorOutput.withBrokenPipeAsError {
            while !bytes.isEmpty {
                var p = pollfd(fd: 2, events: Int16(POLLOUT), revents: 0)
                guard poll(&p, 1, 0) == 1, p.revents & Int16(POLLOUT) != 0 else { return }
                let n = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
                if n < 0 { if errno == EINTR { continue }; return }
                bytes = bytes.dropFirst(n)
            }
        }
    }
}
