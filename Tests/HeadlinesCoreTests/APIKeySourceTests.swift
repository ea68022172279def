import Foundation
import XCTest
@testable import HeadlinesCore
import TestSupport

final class APIKeySourceTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws { dir = try makeTempDir(self) }

    private func keyFile(_ contents: String, mode: Int = 0o600, name: String = "apitube.key") throws -> String {
        let path = dir + "/" + name
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    private func config(keyFile: String?) -> Config {
        var config = Config()
        config.apiKeyFile = keyFile
        return config
    }

    func testEnvironmentWinsOverTheFile() throws {
        let path = try keyFile("from-file", mode: 0o644)
        let resolved = try APIKeySource.resolve(for: .apitube, config: config(keyFile: path),
                                                environment: ["APITUBE_API_KEY": "  from-env\n"])
        XCTAssertEqual(resolved.key, "from-env")
        XCTAssertEqual(resolved.warnings, [])
    }

    func testEachProviderReadsItsOwnVariable() throws {
        let env = ["APITUBE_API_KEY": "tube", "NEWSAPI_API_KEY": "news"]
        XCTAssertEqual(try APIKeySource.resolve(for: .newsapi, config: Config(), environment: env).key, "news")
        XCTAssertEqual(try APIKeySource.resolve(for: .apitube, config: Config(), environment: env).key, "tube")
        XCTAssertNil(try APIKeySource.resolve(for: .newsapi, config: Config(), environment: ["APITUBE_API_KEY": "tube"]).key)
    }

    func testFileIsReadAndTrimmedWhenTheVariableIsEmpty() throws {
        let path = try keyFile("  sk-file-key \n\n")
        let resolved = try APIKeySource.resolve(for: .apitube, config: config(keyFile: path), environment: ["APITUBE_API_KEY": " "])
        XCTAssertEqual(resolved.key, "sk-file-key")
        XCTAssertEqual(resolved.warnings, [])
    }

    func testWorldReadableFileWarns() throws {
        let path = try keyFile("sk-file-key\n", mode: 0o644)
        let resolved = try APIKeySource.resolve(for: .apitube, config: config(keyFile: path), environment: [:])
        XCTAssertEqual(resolved.key, "sk-file-key")
        XCTAssertEqual(resolved.warnings, ["api-key-file \(path) is readable by other users; run chmod 600 \(path)."])
        XCTAssertFalse(resolved.warnings.joined().contains("sk-file-key"))
    }

    func testGroupReadableFileWarnsToo() throws {
        let path = try keyFile("k", mode: 0o640)
        XCTAssertEqual(try APIKeySource.resolve(for: .apitube, config: config(keyFile: path), environment: [:]).warnings.count, 1)
    }

    func testTildeIsTheEnvironmentsHome() throws {
        _ = try keyFile("sk-home\n", name: "key")
        let resolved = try APIKeySource.resolve(for: .newsapi, config: config(keyFile: "~/key"), environment: ["HOME": dir])
        XCTAssertEqual(resolved.key, "sk-home")
    }

    func testEmptyFileIsAnError() throws {
        let path = try keyFile(" \n")
        let error = thrownError { () throws(ConfigError) in
            try APIKeySource.resolve(for: .apitube, config: config(keyFile: path), environment: [:])
        }
        XCTAssertEqual(error, ConfigError("api-key-file \(path) is empty; put the key in it."))
    }

    func testMissingFileIsAnError() {
        let path = dir + "/nope.key"
        let error = thrownError { () throws(ConfigError) in
            try APIKeySource.resolve(for: .apitube, config: config(keyFile: path), environment: [:])
        }
        XCTAssertEqual(error, ConfigError("api-key-file \(path) does not exist or is not text; create it with only the key in it."))
    }

    func testNoVariableAndNoFileGivesNoKey() throws {
        let resolved = try APIKeySource.resolve(for: .apitube, config: Config(), environment: [:])
        XCTAssertNil(resolved.key)
        XCTAssertEqual(resolved.warnings, [])
    }
}
