import BarFormats

/// Which of the host's ready-made files a bar prints, and how an error looks in that bar.
enum BarVariant: Equatable {
    case waybar
    case i3blocksOneShot(pango: Bool)
    case i3blocksPersist(pango: Bool)
    case i3blocksJSON(pango: Bool)
    /// Every other `BarFormat` (i3bar, polybar, yambar, xmobar, lemonbar, json; tmux, genmon,
    /// argos, plain, conky): its file is `BarFormat.fileName`.
    case format(BarFormat)
    /// `plain --html`, for KDE's Command Output (rich text).
    case plainHTML

    /// The file's name in `$XDG_RUNTIME_DIR/headlines/bar/`.
    var fileName: String {
        switch self {
        case .waybar: return "waybar"
        case .i3blocksOneShot(let pango): return pango ? "i3blocks-pango-keyed" : "i3blocks-keyed"
        case .i3blocksPersist(let pango): return pango ? "i3blocks-persist-pango" : "i3blocks-persist"
        case .i3blocksJSON(let pango): return pango ? "i3blocks-json-pango" : "i3blocks-json"
        case .format(let format): return format.fileName
        case .plainHTML: return "plain-html"
        }
    }

    var maxFileBytes: Int {
        if case .format(let format) = self { return format.maxFileBytes }
        return 65536
    }

    /// What a follower prints before its first output, and between outputs.
    var streamHeader: [UInt8] {
        if case .format(let format) = self { return Array(format.streamHeader.utf8) }
        return []
    }

    var streamSeparator: [UInt8] {
        if case .format(let format) = self { return Array(format.streamSeparator.utf8) }
        return []
    }

    /// One line in the bar's own format. `message` is ours: plain ASCII, no quotes or markup.
    func errorLine(_ message: String) -> [UInt8] {
        let line: String
        switch self {
        case .waybar: line = BarFormat.waybar.errorOutput(message)
        case .i3blocksOneShot: line = BarFormat.i3blocks.errorOutput(message)
        case .i3blocksPersist: line = message + "\n"
        case .i3blocksJSON: line = "{\"full_text\":\"\(message)\",\"short_text\":\"\(message)\",\"color\":\"\(BarColors.error)\"}\n"
        case .format(let format): line = format.errorOutput(message)
        case .plainHTML: line = BarFormat.plain.errorOutput(message)
        }
        return Array(line.utf8)
    }

    static let notPrivate = "headlines: runtime folder not private (see headlines status)"
    static let hostStopped = "headlines: the host stopped (see headlines status)"
    static let notRunning = "headlines: no host runs and none could be started (see headlines status)"
    static let starting = "headlines: starting the host"
    /// A widget a running host does not serve, with the ones it does when it said (`served`).
    static func noSuchWidget(_ name: String, served: [String]?) -> String {
        let others = served.map { "; its widgets are " + $0.joined(separator: ", ") } ?? ""
        return "headlines: the host serves no widget " + name + others + " (see headlines status)"
    }
}
