/// Checks a command line the way GLib's `g_shell_parse_argv` (which `headlines menu` uses) reads
/// it, so a broken `[bar] launcher` is a config error when the file loads, not a surprise at the
/// first right click. Only the quoting is checked; the words themselves are GLib's business.
public enum ShellWords {
    /// nil when the quoting is complete, else what is wrong, as a clause ("has an unterminated ' quote").
    public static func problem(in line: String) -> String? {
        var quote: Character?
        var escaped = false
        for ch in line {
            if escaped { escaped = false; continue }
            switch quote {
            case "'"?: if ch == "'" { quote = nil }
            case "\""?:
                if ch == "\\" { escaped = true } else if ch == "\"" { quote = nil }
            default:
                if ch == "\\" { escaped = true } else if ch == "'" || ch == "\"" { quote = ch }
            }
        }
        if let quote { return "has an unterminated \(quote) quote" }
        if escaped { return "ends in a lone backslash" }
        return nil
    }
}
