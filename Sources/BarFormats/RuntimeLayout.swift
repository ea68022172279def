/// Where the host keeps its runtime folders: the one rule for the host and the CLI (`XDGPaths`)
/// and for the static `headlines-bar`, which must find the same folders without their code.
public enum RuntimeLayout {
    /// `$XDG_RUNTIME_DIR` when absolute, else `$XDG_CACHE_HOME/headlines-runtime` (or
    /// `HOME/.cache/headlines-runtime`): the XDG spec says relative paths are to be ignored.
    public static func parent(runtimeDir: String?, cacheHome: String?, home: String) -> String {
        if let runtimeDir, runtimeDir.hasPrefix("/") { return runtimeDir }
        let cache = cacheHome.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.cache"
        return cache + "/headlines-runtime"
    }

    /// `headlines`, or `headlines-widget-NAME` for a `[widget NAME]`: siblings, each made and
    /// checked as its own folder.
    public static func folderName(widget: String?) -> String { widget.map { widgetPrefix + $0 } ?? "headlines" }
    public static let widgetPrefix = "headlines-widget-"
    /// In `headlines/`: the names of the widgets the host serves, one a line, when the config has
    /// widget groups.
    public static let servedWidgetsName = "widgets"

    /// What a widget may be called: it names a folder, so letters, digits, `-` and `_`, 32 bytes
    /// at most.
    public static func isWidgetName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 32
            && name.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}
