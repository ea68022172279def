import FoundationEssentials
import HeadlinesCore
import XCTest

/// The start-up sweep of temporaries a killed writer left: it removes only its own regular files,
/// and never acts through a link, whether the link is a name in the folder or the folder itself.
final class StaleTemporaryTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stale-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    private func paths(cacheHome: String) -> XDGPaths {
        XDGPaths(environment: ["HOME": root, "XDG_CACHE_HOME": cacheHome, "XDG_STATE_HOME": root + "/state",
                               "XDG_RUNTIME_DIR": root + "/run"])
    }

    private func write(_ path: String) { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8))) }

    func testRemovesADeadWritersTemporaryButNotALinkOrALiveWritersFile() throws {
        let cache = root + "/cache/headlines"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        write(cache + "/.headlines.json.tmp-999999999-1")
        write(cache + "/.feeds.json.tmp-\(getpid())-2")
        write(root + "/elsewhere/target")
        try FileManager.default.createSymbolicLink(atPath: cache + "/.seen.json.tmp-999999999-3", withDestinationPath: root + "/elsewhere/target")
        XCTAssertEqual(paths(cacheHome: root + "/cache").removeStaleTemporaries(), 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache).sorted(),
                       [".feeds.json.tmp-\(getpid())-2", ".seen.json.tmp-999999999-3"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/elsewhere/target"))
    }

    func testAFolderThatIsALinkIsNotSwept() throws {
        write(root + "/elsewhere/.notes.tmp-999999999-1")
        try FileManager.default.createDirectory(atPath: root + "/linked", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/linked/headlines", withDestinationPath: root + "/elsewhere")
        XCTAssertEqual(paths(cacheHome: root + "/linked").removeStaleTemporaries(), 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/elsewhere/.notes.tmp-999999999-1"))
    }
}
