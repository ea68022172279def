import BarFormats
import CBarSys
import Glibc

/// The periodic formats, run by their host every few seconds: print the host's ready-made file
/// and exit. `headlines-bar i3blocks` hands anything but a plain run or a left click (no host,
/// nothing published, a folder we do not trust, other buttons) to the full CLI, with the same
/// arguments; the other formats say in their own format that no host runs.
enum OneShot {
    static func run(arguments: [String], pango: Bool, folder: RuntimeFolder, options: [String]) -> Never {
        let button = Sys.env("BLOCK_BUTTON") ?? ""
        if !button.isEmpty && button != "1" { Sys.execFullCLI(arguments) }
        guard folder.check(create: false) == .ok, folder.lockHolder() != nil,
              case .bytes(let bytes) = Sys.readOwnedFile(folder.barDir + "/" + BarVariant.i3blocksOneShot(pango: pango).fileName),
              let newline = bytes.firstIndex(of: 0x0A), newline + 1 < bytes.count else { Sys.execFullCLI(arguments) }
        let record = folder.path + "/" + ShownRecord.folderName + "/"
            + ShownRecord.i3blocksName(blockName: Sys.env("BLOCK_NAME"), instance: Sys.env("BLOCK_INSTANCE"))
        // A click opens what this block printed last, not what the host shows by now.
        if button == "1" {
            if case .bytes(let shown) = Sys.readOwnedFile(record, limit: ShownRecord.maxBytes), let key = ShownRecord.key(in: shown),
               let cli = Sys.sibling("headlines") {
                _ = Sys.spawn(cli, [cli] + options + ["open", "--id", key])
            } else {
                Sys.execFullCLI(arguments)
            }
        }
        let key = Array(bytes[..<newline])
        if !key.isEmpty { Sys.writeIfChanged(record, key + [0x0A], folder: folder.path + "/" + ShownRecord.folderName) }
        Sys.writeAll(1, Array(bytes[(newline + 1)...]))
        exit(0)
    }

    /// tmux, genmon, argos, plain, conky: the file as it is, or one line saying why there is none.
    static func print(_ format: BarFormat, html: Bool = false, folder: RuntimeFolder) -> Never {
        let variant = format == .plain && html ? BarVariant.plainHTML : BarVariant.format(format)
        switch folder.check(create: false) {
        case .notPrivate: Sys.writeAll(1, variant.errorLine(BarVariant.notPrivate))
        case .missing: Sys.writeAll(1, variant.errorLine(BarVariant.notRunning))
        case .ok:
            if folder.lockHolder() != nil, case .bytes(let bytes) = Sys.readOwnedFile(folder.barDir + "/" + variant.fileName,
                                                                                      limit: variant.maxFileBytes), !bytes.isEmpty {
                Sys.writeAll(1, bytes)
            } else {
                Sys.writeAll(1, variant.errorLine(BarVariant.notRunning))
            }
        }
        exit(0)
    }
}
