import CGLibNotify
import Foundation
@testable import HeadlinesDesktop
import XCTest

/// The folder watch reports the names its chosen events name, read on the loop, and nothing for
/// the events it was not asked for: an atomic write to a `.renamedIn` watch is one name.
final class DirectoryMonitorTests: XCTestCase {
    private var folder = ""

    override func setUp() {
        folder = NSTemporaryDirectory() + "directory-monitor-\(getpid())-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: folder) }

    /// Runs the loop until `seen` holds `count` names (or 5 s), then 0.1 s longer, so an
    /// unwanted extra event would arrive too.
    private func names(_ seen: () -> [String], count: Int) -> [String] {
        let deadline = Date().addingTimeInterval(5)
        while seen().count < count, Date() < deadline { g_main_context_iteration(nil, 0); usleep(1000) }
        let settle = Date().addingTimeInterval(0.1)
        while Date() < settle { g_main_context_iteration(nil, 0); usleep(1000) }
        return seen()
    }

    /// open, write, close: a write in place (FileManager's createFile itself renames into place).
    private func writeInPlace(_ path: String, _ text: String = "{}") {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(text.withCString { write(fd, $0, strlen($0)) }, text.utf8.count)
        close(fd)
    }

    private func writeAtomically(_ name: String, in folder: String? = nil) {
        let folder = folder ?? self.folder
        writeInPlace(folder + "/." + name + ".tmp")
        XCTAssertEqual(rename(folder + "/." + name + ".tmp", folder + "/" + name), 0)
    }

    func testAnAtomicWriteIsOneNameForARenamedInWatch() {
        var seen: [String] = []
        let monitor = DirectoryMonitor(path: folder, events: .renamedIn) { seen.append($0) }
        XCTAssertNotNil(monitor)
        writeAtomically("timeline.json")
        writeInPlace(folder + "/written-in-place")
        writeAtomically("offset.json")
        XCTAssertEqual(names({ seen }, count: 2), ["timeline.json", "offset.json"])
        withExtendedLifetime(monitor) {}
    }

    func testEveryEventKindIsReportedWhenAskedFor() {
        var seen: [String] = []
        let monitor = DirectoryMonitor(path: folder, events: [.written, .removed]) { seen.append($0) }
        writeInPlace(folder + "/headlines.conf", "[source]\n")
        XCTAssertEqual(unlink(folder + "/headlines.conf"), 0)
        XCTAssertEqual(names({ seen }, count: 2), ["headlines.conf", "headlines.conf"])
        withExtendedLifetime(monitor) {}
    }

    /// A callback that drops the monitor (the host re-making its watches) ends its events there.
    func testAMonitorDroppedFromItsOwnCallbackStopsCleanly() {
        var seen: [String] = []
        var monitor: DirectoryMonitor?
        monitor = DirectoryMonitor(path: folder, events: .renamedIn) { name in
            seen.append(name)
            monitor = nil
        }
        writeAtomically("a.json")
        writeAtomically("b.json")
        XCTAssertEqual(names({ seen }, count: 1).first, "a.json")
        XCTAssertNil(monitor)
        writeAtomically("c.json")
        XCTAssertFalse(names({ seen }, count: 0).contains("c.json"), "a dropped monitor still reported")
    }

    func testAFolderThatIsMissingIsMadeAndWatched() {
        var seen: [String] = []
        let inner = folder + "/made/here"
        let monitor = DirectoryMonitor(path: inner, events: .renamedIn) { seen.append($0) }
        XCTAssertNotNil(monitor)
        writeAtomically("x", in: inner)
        XCTAssertEqual(names({ seen }, count: 1), ["x"])
        withExtendedLifetime(monitor) {}
    }
}
