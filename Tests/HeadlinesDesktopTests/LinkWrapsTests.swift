import CLinkWraps
import Foundation
import XCTest

/// The two libc stand-ins the release links route references to (Sources/CLinkWraps): the
/// mktemp that FoundationEssentials' atomic writes call in headlines and headlines-host, and the
/// dlopen of the static headlines-bar. Each keeps the contract its caller relies on.
final class LinkWrapsTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "link-wraps-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { _ = try? FileManager.default.removeItem(atPath: folder) }

    private func mktemp(_ template: String) -> (result: String, errno: Int32) {
        var bytes = Array(template.utf8CString)
        errno = 0
        let out = bytes.withUnsafeMutableBufferPointer { String(cString: __wrap_mktemp($0.baseAddress!)) }
        return (out, errno)
    }

    func testMktempFillsTheSixXWithLettersAndDigitsAndNamesNoExistingFile() {
        // Given a template in an empty folder, when it is filled twice
        let prefix = folder + "/.dat.nosync1A2B."
        let first = mktemp(prefix + "XXXXXX").result
        let second = mktemp(prefix + "XXXXXX").result
        // Then each keeps the prefix, has six new letters or digits, names no file, and they differ
        for name in [first, second] {
            XCTAssertTrue(name.hasPrefix(prefix), name)
            let suffix = name.dropFirst(prefix.count)
            XCTAssertEqual(suffix.count, 6, name)
            XCTAssertTrue(suffix.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, name)
            XCTAssertNotEqual(String(suffix), "XXXXXX")
            XCTAssertFalse(FileManager.default.fileExists(atPath: name))
        }
        XCTAssertNotEqual(first, second)
    }

    func testMktempRefusesATemplateWithoutSixTrailingX() {
        let short = mktemp(folder + "/nameXXXXX")
        XCTAssertEqual(short.result, "")
        XCTAssertEqual(short.errno, EINVAL)
        XCTAssertEqual(mktemp("").result, "")
    }

    func testMktempReportsAFolderItCannotLookInto() {
        // A path under a regular file: lstat fails with ENOTDIR, never "free to use".
        let file = folder + "/plain"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        let out = mktemp(file + "/tmp.XXXXXX")
        XCTAssertEqual(out.result, "")
        XCTAssertEqual(out.errno, ENOTDIR)
    }

    func testDlopenOfTheStaticBarFindsNothing() {
        XCTAssertNil(__wrap_dlopen("libswiftPrespecialized.so", RTLD_LAZY | RTLD_NOLOAD))
    }
}
