import Glibc

/// `headlines-bar i3blocks`, run by i3blocks every few seconds: prints the host's ready-made
/// three lines and exits. Anything else (a click, no host, nothing published, a folder we do
/// not trust) is the full CLI's job, so it takes over with the same arguments.
enum OneShot {
    static func run(arguments: [String], pango: Bool, folder: RuntimeFolder) -> Never {
        if let button = Sys.env("BLOCK_BUTTON"), !button.isEmpty { Sys.execFullCLI(arguments) }
        guard folder.check(create: false) == .ok, folder.lockHolder() != nil else { Sys.execFullCLI(arguments) }
        guard case .bytes(let bytes) = Sys.readOwnedFile(folder.barDir + "/" + BarVariant.i3blocksOneShot(pango: pango).fileName),
              !bytes.isEmpty else { Sys.execFullCLI(arguments) }
        Sys.writeAll(1, bytes)
        exit(0)
    }
}
