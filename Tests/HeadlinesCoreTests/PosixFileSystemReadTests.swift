import Foundation
import HeadlinesCore
import XCTest

/// `PosixFileSystem.read`: regular files only, refused by size before a byte is read.
final class PosixFileSystemReadTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("posix-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func testFIFOIsRefusedWithoutBlocking() throws {
        let path = dir.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        XCTAssertThrowsError(try PosixFileSystem().read(path, limit: 100)) { error in
            XCTAssertEqual((error as? NotARegularFile)?.kind, "a FIFO")
            XCTAssertEqual("\(error)", "\(path) is a FIFO, not a regular file")
        }
    }

    func testDeviceIsRefused() {
        XCTAssertThrowsError(try PosixFileSystem().read("/dev/zero", limit: 100)) { error in
            XCTAssertEqual((error as? NotARegularFile)?.kind, "a device")
        }
    }

    func testHugeFileIsRefusedBySizeUnread() throws {
        // A sparse 200 MB file: reading it would take seconds and the memory of its size.
        let path = dir.appendingPathComponent("seen.json").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        XCTAssertEqual(truncate(path, 200 << 20), 0)
        let started = Date()
        // A limit of 150 MB: reading up to it before noticing would take well over 50 ms.
        XCTAssertThrowsError(try PosixFileSystem().read(path, limit: 150 << 20)) { XCTAssertTrue($0 is StateFileTooLarge) }
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.05)
    }

    func testFileOfExactlyTheLimitIsRead() throws {
        let path = dir.appendingPathComponent("exact").path
        try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try PosixFileSystem().read(path, limit: 4096)?.count, 4096)
        XCTAssertThrowsError(try PosixFileSystem().read(path, limit: 4095))
    }
}
