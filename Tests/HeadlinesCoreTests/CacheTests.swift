import Foundation
import XCTest
@testable import HeadlinesCore
import TestSupport

final class CacheTests: XCTestCase {
    var dir = ""
    var path: String { dir + "/cache/headlines.json" }
    var warnings: [String] = []

    override func setUpWithError() throws {
        dir = try makeTempDir(self)
        warnings = []
    }

    private func warn(_ message: String) { warnings.append(message) }

    private var sample: CachedHeadlines {
        var headlines = FixtureHeadlines.apitubeFL
        headlines[0].summary = "With a summary & markup <b>."
        return CachedHeadlines(provider: "APITube", fetchedAt: date("2026-11-29T23:59:59.123Z"), headlines: headlines)
    }

    func testRoundTripKeepsEveryFieldAndMilliseconds() throws {
        // Given a cache written once
        let cache = HeadlineCache(path: path)
        try cache.store(sample)
        // When it is read back
        let loaded = cache.load(now: fixtureNow, warn: warn)
        // Then it is the same value, dates to the millisecond
        XCTAssertEqual(loaded, sample)
        XCTAssertEqual(warnings, [])
    }

    func testStoreIsAtomicAndPrivate() throws {
        // Given a cache written twice, in a folder that store creates
        let cache = HeadlineCache(path: path)
        try cache.store(sample)
        let second = CachedHeadlines(provider: "NewsAPI", fetchedAt: date("2026-11-30T00:00:00.250Z"),
                                     headlines: Array(FixtureHeadlines.apitubeFL[5...8]))
        try cache.store(second)
        // Then only the cache file is left (no temporary files), 0600 in a 0700 folder, holding the second value
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/cache"), ["headlines.json"])
        XCTAssertEqual(try mode(of: path), 0o600)
        XCTAssertEqual(try mode(of: dir + "/cache"), 0o700)
        XCTAssertEqual(cache.load(now: fixtureNow, warn: warn), second)
    }

    func testCorruptFileIsMovedAsideWithOneWarning() throws {
        // Given garbage where the cache should be
        try FileManager.default.createDirectory(atPath: dir + "/cache", withIntermediateDirectories: true)
        try Data("{\"version\":1,\"provider\":\"APITube\",\"fetchedAt\":".utf8).write(to: URL(fileURLWithPath: path))
        // When it is loaded
        let loaded = HeadlineCache(path: path).load(now: fixtureNow, warn: warn)
        // Then nothing is returned, one warning says where the file went, and it is there
        XCTAssertNil(loaded)
        let aside = path + ".corrupt-1795996800"
        XCTAssertEqual(warnings, ["The cache file \(path) was corrupt; moved it to \(aside) and started afresh."])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/cache"), ["headlines.json.corrupt-1795996800"])
        // And a second load finds no file and stays quiet
        XCTAssertNil(HeadlineCache(path: path).load(now: fixtureNow, warn: warn))
        XCTAssertEqual(warnings.count, 1)
    }

    func testEmptyFileCountsAsCorrupt() throws {
        try FileManager.default.createDirectory(atPath: dir + "/cache", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        XCTAssertNil(HeadlineCache(path: path).load(now: fixtureNow, warn: warn))
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains(".corrupt-") ?? false)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testValidJSONOfTheWrongShapeIsCorrupt() throws {
        try FileManager.default.createDirectory(atPath: dir + "/cache", withIntermediateDirectories: true)
        try FixturePaths.data("apitube/top-headlines-fl.json").write(to: URL(fileURLWithPath: path))
        XCTAssertNil(HeadlineCache(path: path).load(now: fixtureNow, warn: warn))
        XCTAssertEqual(warnings.count, 1)
    }

    func testMissingFileIsEmptyAndQuiet() {
        XCTAssertNil(HeadlineCache(path: path).load(now: fixtureNow, warn: warn))
        XCTAssertEqual(warnings, [])
    }

    func testStatusRoundTripAndCorruptStatusReadsAsFresh() throws {
        // Given a status with a failure after a success
        let store = RefreshStatusStore(path: dir + "/state/status.json")
        var status = RefreshStatus()
        status.recordSuccess(provider: "APITube", at: date("2026-11-29T22:00:00.250Z"))
        status.recordFailure(provider: "APITube", at: date("2026-11-29T23:00:00.750Z"), message: "APITube is rate-limiting requests.")
        try store.store(status)
        // Then it reads back whole
        XCTAssertEqual(store.load(now: fixtureNow, warn: warn), status)
        XCTAssertEqual(status.lastSuccess, date("2026-11-29T22:00:00.250Z"))
        // And garbage reads as a fresh status with one warning
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: store.path))
        XCTAssertEqual(store.load(now: fixtureNow, warn: warn), RefreshStatus())
        XCTAssertEqual(warnings.count, 1)
    }
}
