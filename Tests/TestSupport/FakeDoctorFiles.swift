import HeadlinesCore
import Synchronization

/// `DoctorFiles` over a dictionary of path to text; a folder lists the files directly in it.
/// Records every path read, so a test can tell which files a search looked at.
public final class FakeDoctorFiles: DoctorFiles {
    private let files: [String: String]
    private let reads = Mutex<[String]>([])

    public init(_ files: [String: String]) { self.files = files }

    public var read: [String] { reads.withLock { $0 } }

    public func text(_ path: String) -> String? {
        reads.withLock { $0.append(path) }
        return files[path]
    }

    public func names(in folder: String) -> [String]? {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let names = files.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }.map { String($0.dropFirst(prefix.count)) }
        return names.isEmpty ? nil : names
    }
}
