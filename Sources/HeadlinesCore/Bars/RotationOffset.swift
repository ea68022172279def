import FoundationEssentials

/// `headlines next` / `prev`: an offset added to the entry index, kept by the host (the bus's
/// Next and Previous) in `$XDG_RUNTIME_DIR/headlines/offset.json` for the next host to start from.
public struct RotationOffset: Codable, Equatable, Sendable {
    public var offset: Int
    public init(offset: Int = 0) { self.offset = offset }
}

extension JSONStateFile where Value == RotationOffset {
    /// The shared offset at `path` (`XDGPaths.rotationOffsetFile`).
    /// Read like every runtime file: no links, only our own (`PosixFileSystem.runtimeFolder`).
    public init(rotationOffsetAt path: String, fileSystem: any StateFileSystem = PosixFileSystem.runtimeFolder) {
        self.init(path: path, what: "rotation offset", fileSystem: fileSystem)
    }
}
