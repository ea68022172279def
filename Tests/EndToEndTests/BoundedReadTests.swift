import Foundation
import TestSupport
import XCTest

/// Files headlines reads that are not files: a FIFO as the config, the key file or the cache,
/// /dev/zero as the key file. Each command returns within 2 s with one sentence naming the file,
/// instead of blocking in open(2) or reading without end.
final class BoundedReadTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws { cli = try CLIRunner() }
    override func tearDown() { cli?.cleanUp(); cli = nil }

    private func fifo(_ name: String) throws -> String {
        let path = cli.root.appendingPathComponent(name).path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        return path
    }

    /// An APITube config on an unreachable port whose api-key-file is `keyFile`.
    private func keyFileConfig(_ keyFile: String) throws -> String {
        try cli.writeConfig("""
            [source]
            provider=apitube
            base-url=http://127.0.0.1:9/
            api-key-file=\(keyFile)

            """, at: cli.root.appendingPathComponent("key.conf")).path
    }

    private func assertQuickSentence(_ result: CLIRunner.Result, status: Int32, mentions: [String],
                                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
        XCTAssertLessThan(result.elapsed, 2, file: file, line: line)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr, file: file, line: line)
        for text in mentions { XCTAssertTrue(result.stderr.contains(text), "\(text) not in: \(result.stderr)", file: file, line: line) }
    }

    func testFIFOConfigFileIsRefusedAtOnce() throws {
        let config = try fifo("fifo.conf")
        for command in ["list", "status", "fetch", "run"] {
            let result = try cli.run(["--config", config, command], timeout: 10)
            assertQuickSentence(result, status: 2, mentions: [config, "is a FIFO, not a regular file"])
        }
    }

    func testDevZeroKeyFileIsRefusedAtOnce() throws {
        let result = try cli.run(["--config", try keyFileConfig("/dev/zero"), "fetch"], timeout: 10)
        assertQuickSentence(result, status: 2, mentions: ["api-key-file /dev/zero is a device, not a regular file"])
    }

    func testFIFOKeyFileIsRefusedAtOnce() throws {
        let key = try fifo("key.fifo")
        let result = try cli.run(["--config", try keyFileConfig(key), "fetch"], timeout: 10)
        assertQuickSentence(result, status: 2, mentions: ["api-key-file \(key) is a FIFO, not a regular file"])
    }

    func testOverlongKeyFileIsRefusedUnread() throws {
        let key = cli.root.appendingPathComponent("long.key")
        try Data(repeating: UInt8(ascii: "k"), count: 5000).write(to: key)
        let result = try cli.run(["--config", try keyFileConfig(key.path), "fetch"], timeout: 10)
        assertQuickSentence(result, status: 2, mentions: ["longer than 4096 bytes"])
    }

    func testFIFOCacheIsSkippedWithOneWarning() throws {
        try FileManager.default.createDirectory(at: cli.cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(cli.cacheFile.path, 0o600), 0)
        let result = try cli.run(["list"], timeout: 10)
        assertQuickSentence(result, status: 0, mentions: ["cache file", "is a FIFO, not a regular file"])
        XCTAssertTrue(result.stdout.contains("No headlines cached"), result.stdout)
    }
}
