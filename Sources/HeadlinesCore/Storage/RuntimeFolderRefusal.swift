import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runtime folder, or a file in it, is not ours or not private, so headlines will not use it.
/// Its description is the one sentence a person sees (in `status`, the host's log, a bar): what is
/// wrong and what to do.
public struct RuntimeFolderRefusal: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Problem: Equatable, Sendable {
        /// A symbolic link where the folder or a file should be.
        case symbolicLink
        /// Not a directory (for the folder) or not a regular file (for a file: a FIFO, a device...).
        case wrongKind
        /// Owned by another user.
        case ownedBy(uid: UInt32)
        /// The folder grants group or others any permission, or a file lets them write.
        case openToOthers(mode: UInt32)
    }

    public var path: String
    public var problem: Problem
    /// The folder itself, or a file in it: the advice differs.
    public var isFolder: Bool

    public init(path: String, problem: Problem, isFolder: Bool) {
        self.path = path
        self.problem = problem
        self.isFolder = isFolder
    }

    public var description: String {
        let shown = Self.shortened(path)
        let what: String
        switch problem {
        case .symbolicLink: what = "\(shown) is a symbolic link, which headlines never follows there"
        case .wrongKind: what = "\(shown) is not a \(isFolder ? "folder" : "regular file")"
        case let .ownedBy(uid): what = "\(shown) is owned by uid \(uid), not you"
        case let .openToOthers(mode):
            what = "\(shown) is \(isFolder ? "open" : "writable") to other users (mode \(Self.octal(mode)))"
        }
        // A file in a folder of ours can be removed; a folder we do not own may not be removable,
        // and pointing XDG_RUNTIME_DIR elsewhere always works.
        return what + (isFolder ? ": remove it or set XDG_RUNTIME_DIR to a folder of your own." : ": remove it.")
    }

    /// `~/...` for paths in the home folder: shorter, and what the person typed.
    static func shortened(_ path: String) -> String {
        guard let raw = getenv("HOME") else { return path }
        let home = String(cString: raw)
        guard home.count > 1, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
