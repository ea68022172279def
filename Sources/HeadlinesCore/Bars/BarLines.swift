import BarFormats
import FoundationEssentials

/// The ready-made lines the host publishes in `$XDG_RUNTIME_DIR/headlines/bar/`, one file per
/// bar variant holding the exact bytes that bar prints. `headlines-bar` (a static binary with no
/// Foundation) only copies them, so a bar copy or a one-shot block costs a read and a write.
public enum BarLines {
    /// File names in the bar folder; `headlines-bar` spells the same names (keep them in step).
    /// In the order they are written: first those that followers print the moment they change,
    /// then the one-shot blocks', which i3blocks reads only at its next run of the block.
    public enum Variant: String, CaseIterable, Sendable {
        case waybar
        case i3blocksPersist = "i3blocks-persist"
        case i3blocksPersistPango = "i3blocks-persist-pango"
        case i3blocksJSON = "i3blocks-json"
        case i3blocksJSONPango = "i3blocks-json-pango"
        case i3bar, polybar, yambar, xmobar, lemonbar
        case widget = "widget.json"
        /// The one-shot block's three lines after the key of the headline they show
        /// (`I3blocksRenderer.keyedOneShot`).
        case i3blocksKeyed = "i3blocks-keyed"
        case i3blocksPangoKeyed = "i3blocks-pango-keyed"
        case tmux, genmon, argos, plain, conky
        /// `plain --html`: KDE's Command Output renders rich text, so `<` and `&` are escaped.
        case plainHTML = "plain-html"

        /// The `BarFormat` this variant is the file of, for the formats `FormatLines` renders.
        var format: BarFormat? {
            switch self {
            case .i3bar: return .i3bar
            case .polybar: return .polybar
            case .yambar: return .yambar
            case .xmobar: return .xmobar
            case .lemonbar: return .lemonbar
            case .widget: return .json
            case .i3blocksKeyed: return .i3blocks
            case .tmux: return .tmux
            case .genmon: return .genmon
            case .argos: return .argos
            case .plain: return .plain
            case .conky: return .conky
            default: return nil
            }
        }
    }

    /// Every variant's bytes for `state` at `now`.
    public static func render(_ state: BarState, now: Date, maxLength: Int) -> [Variant: String] {
        render(state, FormatLines.Context(now: now, maxLength: maxLength))
    }

    /// Every variant's bytes for `state` in `context` (its widget, thumbnails, fetch date).
    public static func render(_ state: BarState, _ context: FormatLines.Context) -> [Variant: String] {
        var out: [Variant: String] = [:]
        for variant in Variant.allCases { out[variant] = render(variant, state, context) }
        return out
    }

    /// One variant's bytes for `state` in `context`.
    public static func render(_ variant: Variant, _ state: BarState, _ context: FormatLines.Context) -> String? {
        let now = context.now, maxLength = context.maxLength
        if let format = variant.format { return FormatLines.render(format, state, context) }
        switch variant {
        case .waybar: return WaybarRenderer.render(state, now: now, maxLength: maxLength)
        case .i3blocksPersist: return I3blocksRenderer.persistLine(state, maxLength: maxLength, pango: false)
        case .i3blocksPersistPango: return I3blocksRenderer.persistLine(state, maxLength: maxLength, pango: true)
        case .i3blocksJSON: return I3blocksRenderer.persistJSONLine(state, maxLength: maxLength, pango: false)
        case .i3blocksJSONPango: return I3blocksRenderer.persistJSONLine(state, maxLength: maxLength, pango: true)
        case .plainHTML:
            return BarText.encoded(I3blocksRenderer.rawText(state, maxLength: maxLength).full,
                                   bytes: FormatLines.maxTextBytes, encode: Escape.pango) + "\n"
        case .i3blocksPangoKeyed: return I3blocksRenderer.keyedOneShot(state, maxLength: maxLength, pango: true)
        default: return nil
        }
    }
}

extension XDGPaths {
    /// The folder of ready-made bar lines (`BarLines`).
    public var barLinesDir: String { runtimeHeadlinesDir + "/bar" }
}

extension BarLines {
    /// Writes one variant's line into `dir` atomically (a reader sees the old bytes or the new,
    /// never half), creating the folder 0700 when it is missing.
    public static func write(_ line: String, variant: Variant, in dir: String) throws {
        try Platform.mkdirs(dir)
        try PosixFileSystem.runtimeFolder.writeAtomically(Data(line.utf8), to: dir + "/" + variant.rawValue)
    }
}
