import Foundation
import HeadlinesCore
@testable import HeadlinesSecrets
import XCTest

/// `[source] password-file`: the first line of a regular file that only its owner, the user, may
/// read or write; anything else is refused with the sentence saying what to do, and never read.
final class PasswordFileTests: XCTestCase {
    private let password = "pw-Distinct-7Q2xK9"
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("headlines-pwfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    private func file(_ name: String, _ text: String, mode: Int) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url.path
    }

    private func read(_ path: String) -> Result<String, PasswordFile.Failure> {
        PasswordFile.read(path, environment: ["HOME": folder.path])
    }

    private func clause(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        switch read(path) {
        case .success: XCTFail("\(path) gave a password", file: file, line: line); return ""
        case let .failure(failure):
            XCTAssertFalse(failure.clause.contains(password), failure.clause, file: file, line: line)
            return failure.clause
        }
    }

    func testAPrivateFileGivesItsFirstLine() throws {
        XCTAssertEqual(try read(try file("pw", "\(password)\nsecond line\n", mode: 0o600)).get(), password)
        XCTAssertEqual(try read(try file("ro", "\(password)\r\n", mode: 0o400)).get(), password)
        _ = try file("home", password, mode: 0o600)
        XCTAssertEqual(try read("~/home").get(), password, "~/ is the environment's HOME")
    }

    func testAFileOthersMayReadOrWriteIsRefusedWithTheChmodToRun() throws {
        for mode in [0o644, 0o640, 0o604, 0o620, 0o602] {
            let path = try file("pw-\(mode)", password, mode: mode)
            XCTAssertEqual(clause(path), "password-file \(path) is not private (mode 0\(String(mode, radix: 8))): run chmod 600 \(path)")
        }
    }

    func testALinkAFIFOAFolderAndAMissingFileAreRefused() throws {
        let target = try file("target", password, mode: 0o600)
        let link = folder.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        XCTAssertEqual(clause(link), "password-file \(link) is a symbolic link, which is not followed for a password: name the file itself")
        // Opened without blocking, refused by kind: a FIFO nobody writes must not hang the reload.
        let fifo = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let answered = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var fifoRead: Result<String, PasswordFile.Failure>?
        let home = folder.path
        Thread { fifoRead = PasswordFile.read(fifo, environment: ["HOME": home]); answered.signal() }.start()
        if answered.wait(timeout: .now() + 30) == .timedOut {
            XCTFail("reading the FIFO blocked")
            // A writer opening it releases the blocked reader, so the thread ends.
            close(open(fifo, O_WRONLY | O_NONBLOCK))
            answered.wait()
        }
        guard case let .failure(failure) = fifoRead else { return XCTFail("the FIFO gave a password") }
        XCTAssertEqual(failure.clause, "password-file \(fifo) is a FIFO, not a regular file")
        XCTAssertEqual(clause(folder.path), "password-file \(folder.path) is a folder, not a regular file")
        let missing = folder.appendingPathComponent("missing").path
        XCTAssertEqual(clause(missing), "password-file \(missing) does not exist")
    }

    func testAnEmptyOrOverlongFileIsRefused() throws {
        let empty = try file("empty", "", mode: 0o600)
        XCTAssertEqual(clause(empty), "password-file \(empty) has no password on its first line")
        let blank = try file("blank", "\n\(password)\n", mode: 0o600)
        XCTAssertEqual(clause(blank), "password-file \(blank) has no password on its first line")
        let long = try file("long", password + "\n" + String(repeating: "x", count: 4096), mode: 0o600)
        XCTAssertEqual(clause(long), "password-file \(long) is longer than 4 KiB: put only the password in it")
    }

    func testAFileOfAnotherUserIsRefused() throws {
        // Only root can give a file away; as root, nobody (65534) is the other user.
        guard geteuid() == 0 else { throw XCTSkip("only root can make a file owned by another user, which this check needs") }
        let path = try file("theirs", password, mode: 0o600)
        XCTAssertEqual(chown(path, 65534, 65534), 0)
        XCTAssertEqual(clause(path), "password-file \(path) is owned by uid 65534, not you")
    }
}
