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

extension ShellWords {
    /// The words of a command line as a POSIX shell would split them (quotes and backslashes, no
    /// expansion of any kind), for a command run without a shell; nil when the quoting is broken.
    public static func split(_ line: String) -> [String]? {
        guard problem(in: line) == nil else { return nil }
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for ch in line {
            if escaped {
                if quote == "\"" && !["\"", "\\", "$", "`"].contains(ch) { word.append("\\") }
                word.append(ch)
                escaped = false
                continue
            }
            switch quote {
            case "'"?:
                if ch == "'" { quote = nil } else { word.append(ch) }
            case "\""?:
                if ch == "\\" { escaped = true } else if ch == "\"" { quote = nil } else { word.append(ch) }
            default:
                if ch == " " || ch == "\t" || ch == "\n" {
                    if inWord { words.append(word); word = ""; inWord = false }
                    continue
                }
                inWord = true
                if ch == "\\" { escaped = true } else if ch == "'" || ch == "\"" { quote = ch } else { word.append(ch) }
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
