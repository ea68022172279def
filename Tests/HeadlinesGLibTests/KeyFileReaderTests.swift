import Foundation
import HeadlinesCore
import HeadlinesGLib
import XCTest

/// `KeyFileReader` on real files: groups out, nil for a missing file, a ConfigError naming the path.
final class KeyFileReaderTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("keyfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func write(_ text: String, name: String = "headlines.conf") throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testValidFileGivesItsGroupsAsStrings() throws {
        // Given a key file with comments, two groups and an escaped value
        let path = try write("""
        # headlines config
        [source]
        provider = newsapi
        country=us
        query = a\\sb

        [bar]
        max-length = 80
        """)

        // When it is read
        let groups = try KeyFileReader.read(path: path)

        // Then every group and key is there, values trimmed and unescaped
        XCTAssertEqual(groups, [
            "source": ["provider": "newsapi", "country": "us", "query": "a b"],
            "bar": ["max-length": "80"],
        ])
    }

    func testEmptyFileHasNoGroups() throws {
        XCTAssertEqual(try KeyFileReader.read(path: try write("")), [:])
    }

    func testReadGroupsParseIntoConfig() throws {
        let path = try write("[source]\nprovider = newsapi\ntimeout = 45s\n")
        let config = try Config.parse(groups: XCTUnwrap(KeyFileReader.read(path: path)), file: path)
        XCTAssertEqual(config.provider, .newsapi)
        XCTAssertEqual(config.timeout, 45)
    }

    func testMissingFileIsNil() throws {
        XCTAssertNil(try KeyFileReader.read(path: dir.appendingPathComponent("absent.conf").path))
    }

    func testMalformedFileIsAConfigErrorNamingThePath() throws {
        // Given a file that is not a key file: a key before any group, and a line without '='
        let path = try write("provider = apitube\nthis line is not a key\n")

        // When it is read, then the error names the file so a person can find it
        XCTAssertThrowsError(try KeyFileReader.read(path: path)) { error in
            guard let configError = error as? ConfigError else { return XCTFail("not a ConfigError: \(error)") }
            XCTAssertTrue(configError.message.contains(path), configError.message)
            XCTAssertTrue(configError.message.hasSuffix("."), configError.message)
        }
    }

    func testUnreadableFileIsAConfigErrorNamingThePath() throws {
        // A directory where the file should be cannot be loaded; it is not "missing" either.
        let path = dir.appendingPathComponent("a-directory.conf").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        XCTAssertThrowsError(try KeyFileReader.read(path: path)) { error in
            XCTAssertTrue((error as? ConfigError)?.message.contains(path) ?? false, "\(error)")
        }
    }
}
