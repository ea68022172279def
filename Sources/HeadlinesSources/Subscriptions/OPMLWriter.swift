import FoundationEssentials
import HeadlinesCore

/// `headlines export --opml`: feeds as an OPML 2.0 subscription list, the form every feed reader
/// imports (and `headlines import` reads back).
public enum OPMLWriter {
    public static func document(_ feeds: [URL], title: String = "headlines feeds") -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<opml version="2.0">"#,
                     "  <head>", "    <title>\(escape(title))</title>", "  </head>", "  <body>"]
        for feed in feeds {
            let name = escape(feed.host ?? feed.absoluteString)
            lines.append(#"    <outline type="rss" text="\#(name)" title="\#(name)" xmlUrl="\#(escape(feed.absoluteString))"/>"#)
        }
        lines += ["  </body>", "</opml>", ""]
        return lines.joined(separator: "\n")
    }

    /// Text for an XML attribute or element: the five markup characters escaped, and control
    /// characters XML cannot carry dropped.
    static func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case let c where c.value < 0x20 && c != "\t" && c != "\n": continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
