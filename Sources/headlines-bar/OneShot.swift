import BarFormats
import CBarSys
import Glibc

/// The periodic formats, run by their host every few seconds: print the host's ready-made file
/// and exit. With no host, they say so in their own format and ask for one (`headlines start`,
/// which the session bus answers by activation), so the next run shows headlines.
enum OneShot {
    /// i3blocks with `interval=N`: acts on the click i3blocks re-runs the block for, then prints.
    static func run(pango: Bool, folder: RuntimeFolder, options: [String]) -> Never {
        let record = folder.path + "/" + ShownRecord.folderName + "/"
            + ShownRecord.i3blocksName(blockName: Sys.env("BLOCK_NAME"), instance: Sys.env("BLOCK_INSTANCE"))
        switch Sys.env("BLOCK_BUTTON") ?? "" {
        case "1":
            // What this block printed last, not what the host shows by now.
            if case .bytes(let shown) = Sys.readOwnedFile(record, limit: ShownRecord.maxBytes), let key = ShownRecord.key(in: shown) {
                Sys.runCLI(options + ["open", "--id", key])
            } else {
                Sys.runCLI(options + ["open"])
            }
        case "2": Sys.runCLI(options + ["refresh"])
        case "3": Sys.runCLI(options + ["menu"])
        // Waited for: the host has written the turned line when it answers, and it is printed below.
        case "4": Sys.wait(for: Sys.runCLI(options + ["prev"]))
        case "5": Sys.wait(for: Sys.runCLI(options + ["next"]))
        default: break
        }
        let variant = BarVariant.i3blocksOneShot(pango: pango)
        guard case .bytes(let bytes) = published(variant, in: folder, options: options),
              let newline = bytes.firstIndex(of: 0x0A), newline + 1 < bytes.count else { exit(0) }
        let key = Array(bytes[..<newline])
        if !key.isEmpty { Sys.writeIfChanged(record, key + [0x0A], folder: folder.path + "/" + ShownRecord.folderName) }
        Sys.writeAll(1, Array(bytes[(newline + 1)...]))
        exit(0)
    }

    /// tmux, genmon, argos, plain, conky: the file as it is, or one line saying why there is none.
    static func print(_ format: BarFormat, html: Bool = false, folder: RuntimeFolder, options: [String]) -> Never {
        let variant = format == .plain && html ? BarVariant.plainHTML : BarVariant.format(format)
        if case .bytes(let bytes) = published(variant, in: folder, options: options) { Sys.writeAll(1, bytes) }
        exit(0)
    }

    /// The variant's ready-made file; when there is none, its error line is printed here, and a
    /// host is asked for when none runs.
    private static func published(_ variant: BarVariant, in folder: RuntimeFolder, options: [String]) -> Sys.FileRead {
        let why: String
        switch folder.check(create: false) {
        case .notPrivate: why = BarVariant.notPrivate
        case .missing where folder.isWidget && RuntimeFolder.fromEnvironment().lockHolder() != nil:
            why = BarVariant.noSuchWidget(folder.widget ?? "", served: RuntimeFolder.fromEnvironment().servedWidgets())
        case .missing, .ok:
            if folder.lockHolder() != nil {
                let read = Sys.readOwnedFile(folder.barDir + "/" + variant.fileName, limit: variant.maxFileBytes)
                if case .bytes(let bytes) = read, !bytes.isEmpty { return read }
                why = read == .refused ? BarVariant.notPrivate : BarVariant.starting
            } else {
                Sys.runCLI(options + ["start"])
                why = BarVariant.starting
            }
        }
        Sys.writeAll(1, variant.errorLine(why))
        return .absent
    }
}
