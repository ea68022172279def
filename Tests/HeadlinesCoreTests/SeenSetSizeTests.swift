import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// seen.json stays small by construction: pruned to the newest `SeenSet.capacity` ids on every
/// write, and a file far beyond that is set aside by its size, never parsed.
final class SeenSetSizeTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private var root: URL!
    private var paths: XDGPaths!
    private var warnings: [String] = []

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("seen-size-\(UUID().uuidString)")
        paths = XDGPaths(environment: ["HOME": root.path, "XDG_STATE_HOME": root.appendingPathComponent("state").path,
                                       "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
                                       "XDG_RUNTIME_DIR": root.appendingPathComponent("run").path])
        try FileManager.default.createDirectory(atPath: PathText.directory(of: paths.seenFile), withIntermediateDirectories: true)
        warnings = []
    }
    override func tearDown() { try? FileManager.default.removeItem(at: root) }

    private func headlines(_ range: Range<Int>) -> [Headline] {
        range.map { Headline(id: "id-\($0)", title: "T\($0)", url: URL(string: "https://example.com/\($0)")!,
                             source: "example.com", publishedAt: now.addingTimeInterval(Double($0))) }
    }

    private func notifications() -> HeadlineNotifications {
        HeadlineNotifications(notifier: RecordingNotifier(), paths: paths, maxPerRefresh: 3,
                              warn: { [unowned self] in warnings.append($0) })
    }

    func testTheWrittenSetKeepsTheNewestCapacityIds() throws {
        // Given reloads that bring far more ids than the capacity
        let notify = notifications()
        for batch in 0..<3 {
            notify.reloaded(headlines(batch * 3000..<(batch + 1) * 3000), now: now.addingTimeInterval(Double(batch)))
        }
        // Then the file holds the newest capacity ids, and is small
        let stored = try XCTUnwrap(JSONStateFile(seenSetAt: paths.seenFile).load(now: now, warn: { XCTFail($0) }))
        XCTAssertEqual(stored.seen.count, SeenSet.capacity)
        XCTAssertTrue(stored.contains("id-8999"))
        XCTAssertFalse(stored.contains("id-0"))
        let size = try FileManager.default.attributesOfItem(atPath: paths.seenFile)[.size] as? Int ?? 0
        XCTAssertLessThan(size, SeenSet.fileLimit)
    }

    func testA200MBSeenFileIsSetAsideUnread() throws {
        // Given a 200 MB seen.json (sparse: its size alone must refuse it)
        XCTAssertTrue(FileManager.default.createFile(atPath: paths.seenFile, contents: nil))
        XCTAssertEqual(truncate(paths.seenFile, 200 << 20), 0)

        // When a reload is notified
        let started = Date()
        let plan = notifications().reloaded(headlines(0..<5), now: now)

        // Then it took no time, the file was moved aside with one warning, and a fresh one written
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5)
        XCTAssertEqual(plan.post.count, 1, "an unreadable seen set counts as a first run")
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains("moved it to") == true, "\(warnings)")
        let names = try FileManager.default.contentsOfDirectory(atPath: PathText.directory(of: paths.seenFile))
        XCTAssertTrue(names.contains { $0.hasPrefix("seen.json.corrupt-") } || names.contains { $0.contains(".corrupt-") }, "\(names)")
        let size = try FileManager.default.attributesOfItem(atPath: paths.seenFile)[.size] as? Int ?? 0
        XCTAssertLessThan(size, 4096)
    }

    func testAnOverlongButValidSeenFileIsNotParsed() throws {
        // Given a well-formed seen.json of 40,000 ids (far beyond what a pruned set writes)
        var big = SeenSet()
        for i in 0..<40_000 { big.insert("https://example.com/a/very/long/article/path/\(i)", at: now) }
        try JSONStateFile(path: paths.seenFile, what: "seen-headlines").store(big)
        let size = try FileManager.default.attributesOfItem(atPath: paths.seenFile)[.size] as? Int ?? 0
        XCTAssertGreaterThan(size, SeenSet.fileLimit)

        // When it is loaded, it is set aside, not parsed
        let loaded = JSONStateFile(seenSetAt: paths.seenFile).load(now: now, warn: { self.warnings.append($0) })
        XCTAssertNil(loaded)
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
    }
}
