import BarFormats
import FoundationEssentials

/// One block's `ShownRecord` in a runtime folder: the key of the headline it printed last, read
/// bounded and written atomically like every runtime file (`headlines-bar` keeps the same files).
public struct ShownRecordFile: Sendable {
    public let path: String

    /// The record of the i3blocks block named by `BLOCK_NAME` / `BLOCK_INSTANCE` in `environment`.
    public init(i3blocksIn runtimeFolder: String, environment: [String: String]) {
        path = runtimeFolder + "/" + ShownRecord.folderName + "/"
            + ShownRecord.i3blocksName(blockName: environment["BLOCK_NAME"], instance: environment["BLOCK_INSTANCE"])
    }

    public func key() -> String? {
        guard let data = try? PosixFileSystem.runtimeFolder.read(path, limit: ShownRecord.maxBytes) else { return nil }
        return ShownRecord.key(in: Array(data))
    }

    /// Best effort: without the record a click opens the entry on display instead.
    public func record(_ key: String) {
        guard self.key() != key else { return }
        try? Platform.mkdirs(PathText.directory(of: path))
        try? PosixFileSystem.runtimeFolder.writeAtomically(Data((key + "\n").utf8), to: path)
    }
}
