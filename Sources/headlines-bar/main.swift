import BarFormats
import Glibc

// headlines-bar: what bars run. `waybar`, `i3blocks --persist` and the continuous formats
// (`BarFormat.isContinuous`) follow the host's ready-made lines; `i3blocks` and the other periodic
// formats print them once. Clicks and scrolls run the `headlines` CLI, which asks the host on
// the bus; nothing is handed back to it.
// Fully static and Foundation-free so that each bar copy costs a few hundred kilobytes.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--version") || arguments.contains("-V") {
    Sys.writeAll(1, Array("headlines \(HeadlinesVersion.string)\n".utf8))
    exit(0)
}
if arguments.contains("--help") || arguments.contains("-h") {
    Sys.writeAll(1, Array(BarUsage.text.utf8))
    exit(0)
}
var command: String?
var persist = false, json = false, pango = false, html = false
/// The global options (`--config`, `--provider`, `--base-url`), handed on to the host a bar
/// starts and to the commands a click runs.
var globalOptions: [String] = []
/// `--widget NAME`: follow `[widget NAME]`'s lines (in `headlines-widget-NAME`).
var widget: String?
var index = 0
/// `next N` / `prev N`: the steps of a scroll binding.
var steps = 1
/// `json --changed-from HASH`: the name of the document the widget host already has.
var changedFrom: UInt64?
/// The value of `--option=VALUE`, or of `--option VALUE` (taking the next argument).
@MainActor func optionValue(_ argument: String) -> String {
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    if parts.count > 1 { return parts[1] }
    index += 1
    return index < arguments.count ? arguments[index] : ""
}
while index < arguments.count {
    let argument = arguments[index]
    let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
    switch name {
    case "--persist": persist = true
    case "--json": json = true
    case "--pango": pango = true
    case "--html": html = true
    case "--config", "-c", "--provider", "--base-url":
        if argument.contains("=") {
            globalOptions.append(argument)
        } else if index + 1 < arguments.count {
            globalOptions += [argument, arguments[index + 1]]
            index += 1
        } else {
            Sys.usageError("\(argument) needs a value")
        }
    case "--widget":
        let value = optionValue(argument)
        guard RuntimeFolder.isWidgetName(value) else {
            Sys.usageError("--widget '\(value)' is not a widget name (letters, digits, - and _)")
        }
        widget = value
        globalOptions += ["--widget", value]
    case "--changed-from":
        let value = optionValue(argument)
        guard let hash = ChangedOutput.parse(value) else {
            Sys.usageError("--changed-from '\(value)' is not a document's name (1 to 16 hex digits, 0 for none)")
        }
        changedFrom = hash
    case "waybar" where command == nil, "i3blocks" where command == nil: command = argument
    case "next" where command == nil, "prev" where command == nil:
        command = argument
        // `next 3`: how many steps; anything else there is the CLI's to refuse.
        if index + 1 < arguments.count, let n = Int(arguments[index + 1]) {
            guard n >= 1 else { Sys.usageError("\(argument) takes how many headlines to move, 1 or more") }
            steps = StepCount.clamped(n)
            index += 1
        }
    case _ where command == nil && BarFormat(rawValue: argument) != nil: command = argument
    default: Sys.usageError("unknown argument '\(argument)'")
    }
    index += 1
}
// An i3blocks block's `instance=` names a widget when the host has made that widget's folder, or
// when the host serves widget groups (then a name it does not serve is said so, in the block);
// otherwise (no host yet, a config without widget groups, another use of instance) the block shows
// the default widget.
if widget == nil, command == "i3blocks", let instance = Sys.env("BLOCK_INSTANCE"), RuntimeFolder.isWidgetName(instance),
   Sys.lstatOf(RuntimeFolder.fromEnvironment(widget: instance).path) != nil || RuntimeFolder.fromEnvironment().servedWidgets() != nil {
    widget = instance
    globalOptions += ["--widget", instance]
}
json = json || Sys.env("format") == "json"
pango = pango || Sys.env("markup") == "pango"
switch command {
case "next", "prev":
    ScrollSteps.run(step: command == "next" ? steps : -steps, folder: .fromEnvironment(widget: widget), options: globalOptions)
case "waybar" where !persist && !json && !pango:
    var follower = Follower(folder: .fromEnvironment(widget: widget), variant: .waybar, readsClicks: false, options: globalOptions)
    follower.run()
case "i3blocks" where persist:
    var follower = Follower(folder: .fromEnvironment(widget: widget), variant: json ? .i3blocksJSON(pango: pango) : .i3blocksPersist(pango: pango),
                            readsClicks: json, options: globalOptions)
    follower.run()
case "i3blocks":
    OneShot.run(pango: pango, folder: .fromEnvironment(widget: widget), options: globalOptions)
case .some(let name):
    guard let format = BarFormat(rawValue: name) else { Sys.usageError("'\(name)' does not take these options") }
    if changedFrom != nil && format != .json { Sys.usageError("--changed-from goes with json only") }
    if format.isContinuous {
        var follower = Follower(folder: .fromEnvironment(widget: widget), variant: .format(format),
                                readsClicks: format == .i3bar, options: globalOptions, changedFrom: changedFrom)
        follower.run()
    }
    OneShot.print(format, html: html, folder: .fromEnvironment(widget: widget), options: globalOptions)
default:
    Sys.usageError("no format given")
}
