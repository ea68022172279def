import Foundation

/// The ways a file headlines keeps can be found damaged: emptied, cut in half, overwritten with
/// bytes that are no JSON or text at all, or left unreadable (mode 000).
public enum FileDamage: String, CaseIterable, Sendable {
    case empty, truncated, garbage, unreadable

    /// Damages the file at `url`; returns its bytes afterwards (nil when unreadable).
    @discardableResult
    public func apply(to url: URL) throws -> Data? {
        let good = try Data(contentsOf: url)
        let bytes: Data
        switch self {
        case .empty: bytes = Data()
        case .truncated: bytes = good.prefix(good.count / 2)
        case .garbage: bytes = Data([0, 0xFF, 0xFE, 0x7F] + Array(#"garbage {{{ "not": json"#.utf8) + [0x80, 0x81, 0x82, 0x0A, 0, 0])
        case .unreadable:
            guard chmod(url.path, 0) == 0 else { throw CLIRunner.Failure(description: "chmod 000 \(url.path) failed") }
            return nil
        }
        try bytes.write(to: url)
        return bytes
    }
}

extension CLIRunner {
    /// Copies the cache and state folders to `folder`, to be put back with `restoreState`.
    public func saveState(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["cache", "state"] {
            try FileManager.default.copyItem(at: root.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
    }

    /// Replaces the cache and state folders with the copies `saveState` made in `folder`.
    public func restoreState(from folder: URL) throws {
        for name in ["cache", "state"] {
            let live = root.appendingPathComponent(name)
            try FileManager.default.removeItem(at: live)
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name), to: live)
        }
    }

    /// The files a host's first reload leaves, relative to `root`, by the name their warnings use.
    public static let stateFiles = ["cache": "cache/headlines/headlines.json", "status": "state/headlines/status.json",
                                    "ledger": "state/headlines/ledger.json", "seen": "state/headlines/seen.json"]
}
