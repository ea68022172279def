import Dispatch
import Foundation
import HeadlinesCore
@testable import HeadlinesDesktop
import XCTest

/// While the host runs, a config file that is gone (deleted, or caught mid-replace) keeps the
/// current configuration, as a config that does not parse does: read as the defaults, it switched
/// to APITube and spent budgeted reloads on it. A file that comes back as it was changes nothing.
final class ConfigFileGoneTests: XCTestCase {
    private var dir = ""
    private var environment: [String: String] { ["HOME": dir, "XDG_CONFIG_HOME": dir + "/config", "APITUBE_API_KEY": "k"] }
    private var file: String { dir + "/config/headlines/headlines.conf" }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "config-gone-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/config/headlines", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testAHostReReadingAMissingDefaultConfigKeepsItsConfigurationInsteadOfTheDefaults() throws {
        // Given no file at the default config path
        let args = try Arguments.parse(["run"])
        // When the CLI loads it, it runs on the defaults, as before
        XCTAssertEqual(try LoadedConfig.loadWidgets(args: args, environment: environment).first?.config.provider, .apitube)
        // When a running host re-reads it, that is an error naming the file (the host keeps what it runs)
        XCTAssertThrowsError(try LoadedConfig.loadWidgets(args: args, environment: environment, fileMustExist: true)) { error in
            let message = (error as? ConfigError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains(file), message)
            XCTAssertTrue(message.contains("gone"), message)
        }
        // And a file that is there loads the same either way
        try Data("[source]\nprovider = feeds\nfeeds = https://example.com/rss\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try LoadedConfig.loadWidgets(args: args, environment: environment, fileMustExist: true).first?.config.provider, .feeds)
    }

    func testOnlyNewBytesAreAChange() throws {
        let a = Data("[source]\nfeeds = https://a.example/rss\n".utf8)
        let b = Data("[source]\nfeeds = https://b.example/rss\n".utf8)
        XCTAssertEqual(ConfigFileWatch.verdict(applied: .bytes(a), now: .missing), .gone)
        XCTAssertEqual(ConfigFileWatch.verdict(applied: .bytes(a), now: .bytes(a)), .unchanged, "back as it was: no reload")
        XCTAssertEqual(ConfigFileWatch.verdict(applied: .bytes(a), now: .bytes(b)), .changed)
        XCTAssertEqual(ConfigFileWatch.verdict(applied: .missing, now: .bytes(a)), .changed, "a first config file applies")
        XCTAssertEqual(ConfigFileWatch.verdict(applied: .bytes(a), now: .unreadable), .changed, "the re-read reports why")
    }

    func testALookAtTheFileNeverBlocksOnAFIFO() throws {
        XCTAssertEqual(ConfigFileWatch.look(at: file), .missing)
        XCTAssertEqual(mkfifo(file, 0o600), 0)
        let path = file
        let done = DispatchSemaphore(value: 0)
        let seen = LookBox()
        Thread.detachNewThread {
            seen.value = ConfigFileWatch.look(at: path)
            done.signal()
        }
        if done.wait(timeout: .now() + 2) == .timedOut {
            XCTFail("looking at the config file blocked on a FIFO")
            // A writer end lets the blocked open(2) return, so the thread ends.
            let fd = open(path, O_WRONLY)
            if fd >= 0 { close(fd) }
            _ = done.wait(timeout: .now() + 2)
        }
        XCTAssertEqual(seen.value, .unreadable)
        try FileManager.default.removeItem(atPath: file)
        try Data("x = 1\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(ConfigFileWatch.look(at: file), .bytes(Data("x = 1\n".utf8)))
    }

    private final class LookBox: @unchecked Sendable {
        var value: ConfigFileWatch.FileLook?
    }
}
