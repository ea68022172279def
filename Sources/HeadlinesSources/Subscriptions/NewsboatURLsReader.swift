import FoundationEssentials
import HeadlinesCore

/// newsboat's `urls` file: one feed per line, `URL tag "tag with spaces" "~Custom title" "!"`.
/// `#` lines and blank lines are comments. `query:` (a search over newsboat's own database),
/// `exec:` and `filter:` (which run a program) are skipped with a warning: nothing is ever run.
/// Only http and https URLs are kept; each other line is one warning.
enum NewsboatURLsReader {
    static func read(_ text: String, name: String) -> (subscriptions: [Subscription], warnings: [String]) {
        var subscriptions: [Subscription] = []
        var warnings: [String] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmed()
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let tokens = words(line)
            guard let first = tokens.first else { continue }
            let at = "\(name) line \(offset + 1)"
            let lowered = first.lowercased()
            if lowered.hasPrefix("query:") {
                warnings.append("\(at): a query: feed is a newsboat search of its own articles, which headlines cannot read; skipped.")
                continue
            }
            if lowered.hasPrefix("exec:") || lowered.hasPrefix("filter:") {
                let kind = lowered.hasPrefix("exec:") ? "an exec:" : "a filter:"
                warnings.append("\(at): \(kind) feed runs a program, which headlines never does; skipped.")
                continue
            }
            guard let url = URL(string: first), URLPolicy.isOpenable(url) else {
                warnings.append("\(at): '\(TerminalText.safe(String(first.prefix(200))))' is not an http or https URL; skipped.")
                continue
            }
            var title: String?
            var tags: [String] = []
            for token in tokens.dropFirst() where !token.isEmpty {
                if token.hasPrefix("~") {
                    let text = TextCleaning.collapseWhitespace(String(token.dropFirst()))
                    title = text.isEmpty ? title : text
                } else if token.hasPrefix("!") {
                    continue  // newsboat's "hide this feed" mark: nothing to hide here
                } else if !tags.contains(token) {
                    tags.append(token)
                }
            }
            subscriptions.append(Subscription(url: url, title: title, tags: tags))
        }
        return (Subscription.merged(subscriptions), warnings)
    }

    /// newsboat's tokenizer: words split at spaces and tabs, `"..."` keeps spaces, `\"` and `\\`
    /// inside quotes are the characters themselves.
    static func words(_ line: String) -> [String] {
        var out: [String] = []
        var current = ""
        var inWord = false
        var quoted = false
        var escaped = false
        for ch in line {
            if quoted {
                if escaped { current.append(ch); escaped = false }
                else if ch == "\\" { escaped = true }
                else if ch == "\"" { quoted = false }
                else { current.append(ch) }
            } else if ch == " " || ch == "\t" {
                if inWord { out.append(current); current = ""; inWord = false }
            } else if ch == "\"" {
                quoted = true
                inWord = true
            } else {
                current.append(ch)
                inWord = true
            }
        }
        if inWord { out.append(current) }
        return out
    }
}
