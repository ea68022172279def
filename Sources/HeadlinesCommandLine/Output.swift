import FoundationEssentials
import HeadlinesCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Whole lines straight to the file descriptors, so a pipe (a bar, a script) sees each at once.
/// A closed or full stdout is remembered (the command then exits 1), never a signal.
public enum Output {
    private static let stdoutFailure = Atomic<Int32>(0)

    /// The errno of the first write to stdout that failed, nil while every one arrived.
    public static var standardOutputFailure: Int32? {
        let failure = stdoutFailure.load(ordering: .relaxed)
        return failure == 0 ? nil : failure
    }

    public static func print(_ text: String, terminator: String = "\n") {
        // A server's words reach here (an API's error message in `status`, `fetch`, `refresh`):
        // no escape sequence gets through to the terminal.
        let line = terminator.isEmpty || text.hasSuffix("\n") ? text : text + terminator
        let failure = DescriptorOutput.writeAll(Array(TerminalText.withoutControls(line).utf8), to: 1)
        if failure != 0 { _ = stdoutFailure.compareExchange(expected: 0, desired: failure, ordering: .relaxed) }
    }

    /// stderr; a failure there has nowhere to be told.
    public static func error(_ text: String) {
        DescriptorOutput.writeAll(Array(TerminalText.withoutControls(text.hasSuffix("\n") ? text : text + "\n").utf8), to: 2)
    }

    /// A command's exit status, once its output is known to have arrived: a command whose
    /// output did not arrive did not do its job, and a script must see it.
    public static func exitStatus(_ status: Int32) -> Int32 {
        guard let failure = standardOutputFailure, status == 0 else { return status }
        // EPIPE is a reader that stopped on purpose (`| head -1`): exit 1 without a word.
        if failure != EPIPE {
            error("headlines: could not write the output (\(String(cString: strerror(failure)))); check where stdout goes.")
        }
        return 1
    }
}
