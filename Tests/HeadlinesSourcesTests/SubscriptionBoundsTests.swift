import Foundation
import XCTest
import HeadlinesCore
@testable import HeadlinesSources

/// A subscription file is someone's path: a FIFO, a device, a folder, a huge file or nothing at all
/// gives one sentence at once, never a hang or an unbounded read.
final class SubscriptionBoundsTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("subs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    private func message(_ path: String) -> String {
        do {
            let file = try SubscriptionFile.read(path: path, setting: "[source] feeds-from")
            return "read \(file.subscriptions.count) feeds"
        } catch {
            return error.message
        }
    }

    func testAFIFOIsRefusedWithoutBlocking() throws {
        let path = folder.appendingPathComponent("urls").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let started = Date()
        XCTAssertEqual(message(path), "\(path) is a FIFO, not a regular file; check [source] feeds-from (it takes an OPML or newsboat urls file).")
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
    }

    func testADeviceAndAFolderAreRefused() {
        XCTAssertTrue(message("/dev/zero").hasPrefix("/dev/zero is a device, not a regular file"), message("/dev/zero"))
        XCTAssertTrue(message(folder.path).contains("is a folder, not a regular file"), message(folder.path))
    }

    func testAFileOverOneMiBIsRefusedAndOneAtTheLimitIsRead() throws {
        let line = Data("https://a.example/feed\n".utf8)
        var big = Data()
        while big.count + line.count <= SubscriptionFile.maxBytes { big.append(line) }
        big.append(Data(repeating: UInt8(ascii: "#"), count: SubscriptionFile.maxBytes - big.count))
        let path = folder.appendingPathComponent("urls").path
        try big.write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(message(path), "read 1 feeds")
        big.append(0x0A)
        try big.write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(message(path), "\(path) is larger than 1 MiB, too large for a subscription list; check [source] feeds-from (it takes an OPML or newsboat urls file).")
    }

    func testAMissingFileSaysWhatToCheck() {
        let path = folder.appendingPathComponent("nope").path
        XCTAssertEqual(message(path), "\(path) does not exist; check [source] feeds-from.")
    }

    func testResolvingPutsConfiguredFeedsFirstThenTheFilesWithoutRepeats() throws {
        // Given feeds = lwn and a tagged feeds-from whose file also lists lwn
        let path = folder.appendingPathComponent("urls").path
        try Data("https://lwn.net/headlines/rss linux\nhttps://b.example/feed linux\nhttps://c.example/feed sport\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let config = try Config.parse(groups: ["source": ["provider": "feeds", "feeds": "https://a.example/feed;https://lwn.net/headlines/rss",
                                                          "feeds-from": "~/urls#linux"]], file: "h.conf")
        // When resolved with HOME the folder
        let resolved = try FeedsFromResolver.resolve(config, home: folder.path, configFile: "h.conf").config
        // Then the list is both, in order, each once
        XCTAssertEqual(resolved.feeds.map(\.absoluteString), ["https://a.example/feed", "https://lwn.net/headlines/rss", "https://b.example/feed"])
        // And another provider never reads the file
        var apitube = config
        apitube.provider = .apitube
        try FileManager.default.removeItem(atPath: path)
        XCTAssertEqual(try FeedsFromResolver.resolve(apitube, home: folder.path, configFile: "h.conf").config, apitube)
        XCTAssertThrowsError(try FeedsFromResolver.resolve(config, home: folder.path, configFile: "h.conf")) { error in
            XCTAssertEqual("\(error)", "\(path) does not exist; check [source] feeds-from in h.conf.")
        }
    }
}
