/// The bars and widget hosts `headlines-bar FORMAT` speaks to. Pure Swift on the standard
/// library alone: the host renders with it and the static `headlines-bar` frames and reports
/// errors with it, so both spell every format the same way.
public enum BarFormat: String, CaseIterable, Sendable {
    case waybar, i3blocks, i3bar, polybar, yambar, tmux, xmobar, lemonbar, json, genmon, argos, plain, conky

    /// Followed (one output per change) rather than printed once per run of the host.
    public var isContinuous: Bool {
        switch self {
        case .waybar, .i3bar, .polybar, .yambar, .xmobar, .lemonbar, .json: return true
        case .i3blocks, .tmux, .genmon, .argos, .plain, .conky: return false
        }
    }

    /// The ready-made file in the runtime folder's `bar/` (waybar and i3blocks keep the names
    /// their variants always had).
    public var fileName: String {
        switch self {
        case .json: return "widget.json"
        case .i3blocks: return "i3blocks-keyed"
        default: return rawValue
        }
    }

    /// Largest file `headlines-bar` reads for this format: the widget document lists every
    /// headline, the others are one line or a short menu.
    public var maxFileBytes: Int { self == .json ? 262_144 : 65_536 }

    /// What a continuous copy prints once before its first output (i3bar's protocol header and
    /// the opening of its endless array).
    public var streamHeader: String {
        self == .i3bar ? "{\"version\":1,\"click_events\":true}\n[\n" : ""
    }

    /// What goes before every output but the first (i3bar's array separator).
    public var streamSeparator: String { self == .i3bar ? "," : "" }

    /// One output in this format saying `message` (ours: plain ASCII, no markup), shown with the
    /// error colour where the host has one.
    public func errorOutput(_ message: String) -> String {
        let m = message
        switch self {
        case .waybar: return "{\"text\":\(JSONText.quote(m)),\"class\":\"error\"}\n"
        case .i3blocks: return m + "\n" + m + "\n" + BarColors.error + "\n"
        case .i3bar: return "[{\"name\":\"headlines\",\"full_text\":\(JSONText.quote(m)),\"color\":\"\(BarColors.error)\",\"markup\":\"none\"}]\n"
        case .polybar: return "%{F\(BarColors.error)}" + Escape.polybar(m) + "%{F-}\n"
        case .lemonbar: return "%{F\(BarColors.error)}" + Escape.lemonbar(m) + "%{F-}\n"
        case .yambar: return "text|string|\(m)\nstate|string|error\nid|string|\n\n"
        case .tmux: return Escape.tmux(m) + "\n"
        case .xmobar: return "<fc=\(BarColors.error)>" + Escape.xmobarRaw(m) + "</fc>\n"
        case .json:
            return "{\"error\":\(JSONText.quote(m)),\"index\":null,\"items\":[],\"stale\":true,\"state\":\"error\",\"updated_at\":null,\"widget\":null}\n"
        case .genmon: return "<txt><span foreground=\"\(BarColors.error)\">" + Escape.pango(m) + "</span></txt><tool>" + Escape.pango(m) + "</tool>\n"
        case .argos: return Escape.argosText(m) + " | color=\(BarColors.error)\n"
        case .plain: return Escape.plain(m) + "\n"
        case .conky: return Escape.conky(m) + "\n"
        }
    }
}

/// The colours every bar uses for a state (i3blocks' `color`, polybar's `%{F}`, ...).
public enum BarColors {
    public static let fresh = "#E5E9F0"
    public static let cached = "#D8DEE9"
    public static let stale = "#EBCB8B"
    public static let error = "#BF616A"
}
