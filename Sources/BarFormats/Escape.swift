/// Each host's escaping of untrusted text. The text reaching these is already neutralised (no
/// control characters or newlines) and cut to length: cutting comes first, so a cut never lands
/// inside an escape.
public enum Escape {
    /// Pango markup (waybar, i3blocks `markup=pango`, genmon, argos): `&`, `<` and `>` (an
    /// attribute's quotes are `Markup.escapeAttribute`'s). Byte by byte, never Character by
    /// Character: a combining mark after `&` forms one Character with it, which a per-Character
    /// escape would let through, while in UTF-8 these ASCII bytes only ever stand for themselves.
    public static func pango(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 16)
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            default: out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// polybar: no escape exists for a literal `%{`, so it becomes `% {`, which is not a tag.
    public static func polybar(_ s: String) -> String { s.replacingAll("%{", with: "% {") }

    /// lemonbar reads `%%` as a literal `%` (polybar does not), so every `%` is doubled: no tag
    /// can start, and a text ending in `%` does not swallow the closing `%{A}`.
    public static func lemonbar(_ s: String) -> String { s.replacingAll("%", with: "%%") }

    /// A command inside a polybar action tag `%{A1:COMMAND:}`: its `:` would end the command.
    public static func polybarCommand(_ s: String) -> String {
        polybar(s).replacingAll("\\", with: "\\\\").replacingAll(":", with: "\\:")
    }

    /// tmux `#()` output: `#[` (a style) is broken up, then every `#` doubled (tmux shows `##` as `#`).
    public static func tmux(_ s: String) -> String { s.replacingAll("#[", with: "# [").replacingAll("#", with: "##") }

    /// xmobar: the text inside `<raw=LEN:TEXT/>`, which xmobar takes verbatim for LEN characters
    /// (Unicode scalars, as Haskell counts them): no tag in it is read.
    public static func xmobarRaw(_ s: String) -> String {
        s.isEmpty ? "" : "<raw=\(s.unicodeScalars.count):\(s)/>"
    }

    /// argos' line text: Pango, `|` (which starts argos' attributes) swapped for `│`, and a
    /// leading `-` (argos reads `---` as a separator and `--` as a submenu) for `‐`.
    public static func argosText(_ s: String) -> String {
        let text = pango(s).replacingAll("|", with: "│")
        let dashes = text.prefix { $0 == "-" }.count
        return String(repeating: "‐", count: dashes) + text.dropFirst(dashes)
    }

    /// Plain text (KDE Command Output, GNOME Executor): nothing is markup; already one line.
    public static func plain(_ s: String) -> String { s }

    /// conky text read through `${execpi}` or `${catp}`: `$` starts a variable (`$$` is a `$`)
    /// and `#` a comment to the end of the line (`\#` is a `#`).
    public static func conky(_ s: String) -> String { s.replacingAll("$", with: "$$").replacingAll("#", with: "\\#") }
}

extension String {
    /// Every occurrence of `target` replaced, left to right (the standard library has no
    /// replacing without Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard let first = target.utf8.first, utf8.contains(first) else { return self }
        let t = Array(target.utf8)
        let bytes = Array(utf8)
        guard bytes.count >= t.count else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == t[0], i + t.count <= bytes.count, bytes[i..<i + t.count].elementsEqual(t) {
                out.append(contentsOf: replacement.utf8)
                i += t.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
