import FoundationEssentials
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesGLib
import HeadlinesSources

/// `headlines import FILE[#tag1,tag2]`: an OPML export or a newsboat `urls` file as the config that
/// reads the same feeds, on stdout, for a person who prefers to paste it over `feeds-from`.
enum ImportCommand {
    static func run(positional: [String], environment: [String: String]) -> Int32 {
        guard positional.count == 1, let from = FeedsFrom.parse(positional[0]) else {
            let problem = positional.isEmpty ? "needs a file" : (positional.count > 1 ? "takes one file" : "needs a file before the #tag")
            Output.error("headlines: import \(problem): headlines import FILE or FILE#tag (an OPML export or a newsboat urls file).")
            return 2
        }
        let setting = "the path given to headlines import"
        let path = from.expandedPath(home: environment["HOME"])
        let file: SubscriptionFile
        let chosen: [Subscription]
        do {
            file = try SubscriptionFile.read(path: path, setting: setting)
            chosen = try file.selecting(tags: from.tags, name: path, setting: setting)
        } catch {
            Output.error("headlines: \(error.message)")
            return 2
        }
        for warning in file.warnings { Output.error("headlines: warning: \(warning)") }
        Output.print(text(chosen, from: anchored(from, in: FileManager.default.currentDirectoryPath), format: file.format))
        return 0
    }

    /// The path as the suggested `feeds-from` line must carry it: absolute, since a host started
    /// by systemd or a bar runs in another folder. `~/...` is already the same from anywhere.
    static func anchored(_ from: FeedsFrom, in folder: String) -> FeedsFrom {
        guard !from.path.hasPrefix("/"), !from.path.hasPrefix("~") else { return from }
        var anchored = from
        anchored.path = (folder.hasSuffix("/") ? folder : folder + "/") + from.path
        return anchored
    }

    /// The config text: a comment line per feed (title and tags), then the `[source]` group.
    static func text(_ chosen: [Subscription], from: FeedsFrom, format: SubscriptionFile.Format) -> String {
        let count = chosen.count == 1 ? "1 feed" : "\(chosen.count) feeds"
        let tagged = from.tags.isEmpty ? "" : " tagged " + from.tags.map { "#" + $0 }.joined(separator: ", ")
        var lines = ["# \(count)\(tagged) from \(from.path) (\(format.rawValue)).",
                     "# Or keep reading the file itself, so that editing it changes the widget:",
                     "#   feeds-from = \(from.written)"]
        for subscription in chosen {
            let title = subscription.title.map(oneLine) ?? subscription.url.host ?? subscription.url.absoluteString
            let tags = subscription.tags.isEmpty ? "" : " [" + subscription.tags.map(oneLine).joined(separator: ", ") + "]"
            lines.append("#   \(title)\(tags): \(written(subscription.url))")
        }
        lines += ["[source]", "provider = feeds", "feeds = " + chosen.map { written($0.url) }.joined(separator: ";")]
        return lines.joined(separator: "\n")
    }

    /// The URL as `feeds` reads it back (`Config.feedList`): as given, a `;` or `,` in its path
    /// included (a server with path parameters reads `%3B` as another URL), but an international
    /// host in punycode. Only a URL `feeds` would split (a blank, `;http://` inside it) has its
    /// `;`, `,` and blanks percent-encoded.
    static func written(_ url: URL) -> String {
        var text = url.absoluteString
        if let slashes = text.rangeOfText("://") {
            let authority = text[slashes.upperBound...].prefix { !"/?#".contains($0) }
            let host = authority[(authority.lastIndex(of: "@").map(authority.index(after:)) ?? authority.startIndex)...].prefix { $0 != ":" }
            if !host.hasPrefix("["), host.contains(where: { $0 == "%" || !$0.isASCII }), let ascii = HostName.ascii(String(host)) {
                text = String(text[..<host.startIndex]) + ascii + text[host.endIndex...]
            }
        }
        if Config.feedList(text) == [text[...]] { return text }
        var out = ""
        for ch in text {
            switch ch {
            case ";": out += "%3B"
            case ",": out += "%2C"
            case " ": out += "%20"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Titles and tags come from someone else's file: one line each, no control characters.
    private static func oneLine(_ text: String) -> String {
        TerminalText.safe(TextCleaning.collapseWhitespace(text))
    }
}
