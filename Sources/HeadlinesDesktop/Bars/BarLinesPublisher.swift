import FoundationEssentials
import HeadlinesCore

/// Writes the host's ready-made bar lines (`BarLines`), each file atomically and only when its
/// bytes change, so a follower wakes only for a real change. Runs on the loop; a write is a small
/// local file, never a pipe, so no reader can ever block the host.
@GLibActor
final class BarLinesPublisher {
    private let paths: XDGPaths
    private let folders: [String]
    private var written: [BarLines.Variant: String] = [:]
    private var failing = false

    /// `folders`: where the lines go, the widget's own bar folder first.
    init(paths: XDGPaths, folders: [String]) {
        self.paths = paths
        self.folders = folders
    }

    /// Publishes `state` as every variant's line; `maxLength` is the config's `[bar] max-length`.
    func publish(_ state: BarState, now: Date, maxLength: Int, updatedAt: Date? = nil, thumbnails: [String: String] = [:],
                 readIDs: Set<String> = []) {
        var context = FormatLines.Context(now: now, maxLength: maxLength, widget: paths.widget, thumbnails: thumbnails,
                                          updatedAt: updatedAt)
        context.readIDs = readIDs
        do {
            // Each variant is rendered and written in turn, in `Variant`'s order: a follower's
            // file is on disk before the one-shot blocks' and the widget document are rendered.
            for variant in BarLines.Variant.allCases {
                guard let line = BarLines.render(variant, state, context), written[variant] != line else { continue }
                for folder in folders { try BarLines.write(line, variant: variant, in: folder) }
                written[variant] = line
            }
            if failing { HostLog.info("bar lines can be published again") }
            failing = false
        } catch {
            if !failing { HostLog.warning("Could not publish the bar lines (\(error)); bars keep their last line: check \(paths.runtimeHeadlinesDir).") }
            failing = true
        }
    }

    /// Forgets what was written, so the next publish rewrites every file (the folder was recreated).
    func reset() { written = [:] }
}
