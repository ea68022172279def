/// `headlines-bar --help`, built from `BarFormat.allCases` so that a new format is listed (and
/// held to the shell completions by CompletionFileTests) without another edit.
public enum BarUsage {
    /// What headlines-bar takes besides a format: turning every bar copy, for a scroll binding.
    public static let commands = ["next", "prev"]
    /// Its own options, beside the global ones it hands on (--config, --provider, --base-url).
    public static let options = ["--widget", "--persist", "--json", "--pango", "--html", "--changed-from"]

    public static var text: String {
        func names(continuous: Bool) -> String {
            BarFormat.allCases.filter { $0.isContinuous == continuous }.map(\.rawValue).joined(separator: ", ")
        }
        return """
        Usage: headlines-bar FORMAT [--widget NAME] [--config FILE]
               headlines-bar next [N] | prev [N]

        Prints the host's ready-made output for a bar or widget host, or turns every bar copy.
        FORMAT, followed (one output per change): \(names(continuous: true))
        FORMAT, printed once: \(names(continuous: false))
        i3blocks --persist follows, --json for format=json, --pango for markup=pango;
        plain --html prints rich text. json --changed-from HASH prints one document, once it
        differs from the one HASH names (the first line of the last output; 0 at first), then
        exits. The other commands are headlines' (see headlines --help).

        """
    }
}
