/// Which of the host's ready-made files a bar prints, and how an error looks in that bar.
enum BarVariant: Equatable {
    case waybar
    case i3blocksOneShot(pango: Bool)
    case i3blocksPersist(pango: Bool)
    case i3blocksJSON(pango: Bool)

    /// The file's name in `$XDG_RUNTIME_DIR/headlines/bar/`.
    var fileName: String {
        switch self {
        case .waybar: return "waybar"
        case .i3blocksOneShot(let pango): return pango ? "i3blocks-pango" : "i3blocks"
        case .i3blocksPersist(let pango): return pango ? "i3blocks-persist-pango" : "i3blocks-persist"
        case .i3blocksJSON(let pango): return pango ? "i3blocks-json-pango" : "i3blocks-json"
        }
    }

    /// One line in the bar's own format. `message` is ours: plain ASCII, no quotes or markup.
    func errorLine(_ message: String) -> [UInt8] {
        // The colour I3blocksRenderer.Colors.error uses.
        let line: String
        switch self {
        case .waybar: line = "{\"text\":\"\(message)\",\"class\":\"error\"}\n"
        case .i3blocksOneShot: line = message + "\n" + message + "\n#BF616A\n"
        case .i3blocksPersist: line = message + "\n"
        case .i3blocksJSON: line = "{\"full_text\":\"\(message)\",\"short_text\":\"\(message)\",\"color\":\"#BF616A\"}\n"
        }
        return Array(line.utf8)
    }

    static let notPrivate = "headlines: runtime folder not private (see headlines status)"
    static let hostStopped = "headlines: the host stopped (see headlines status)"
}
