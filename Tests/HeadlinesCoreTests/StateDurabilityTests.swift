import Foundation
@testable import HeadlinesCore
import HeadlinesSources
import XCTest

/// Which state files survive a power cut: what a reload cannot rebuild (the budget ledger, the
/// seen set, the cache, the muted sources) is synced to disk; what every reload writes again
/// (the feeds' validators, the last attempt) is atomic but not synced.
final class StateDurabilityTests: XCTestCase {
    private func syncs(_ fileSystem: any StateFileSystem) -> Bool? { (fileSystem as? PosixFileSystem)?.syncs }

    func testWhatAReloadCannotRebuildIsSyncedAndWhatItRewritesIsNot() {
        XCTAssertEqual(syncs(HeadlineCache(path: "/c/headlines.json").fileSystem), true)
        XCTAssertEqual(syncs(JSONStateFile<SeenSet>(seenSetAt: "/s/seen.json").fileSystem), true)
        XCTAssertEqual(syncs(JSONStateFile<MutedSources>(mutedSourcesAt: "/s/muted.json").fileSystem), true)
        XCTAssertEqual(syncs(LedgerStore(path: "/s/ledger.json").file.fileSystem), true)
        XCTAssertEqual(syncs(FeedStateStore(path: "/c/feeds.json").fileSystem), false)
        XCTAssertEqual(syncs(RefreshStatusStore(path: "/s/status.json").fileSystem), false)
    }

    func testAFileThatIsNotSyncedIsStillReplacedWhole() throws {
        // Given a status file on disk
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = RefreshStatusStore(path: folder.appendingPathComponent("status.json").path)
        var status = RefreshStatus()
        status.provider = "first"
        try store.store(status)
        // When it is written again
        status.provider = "second"
        try store.store(status)
        // Then it holds the new value whole, and no temporary file is left beside it
        XCTAssertEqual(store.load(now: Date(), warn: { XCTFail($0) }).provider, "second")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["status.json"])
    }
}
