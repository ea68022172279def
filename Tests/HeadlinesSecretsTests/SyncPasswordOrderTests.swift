import Foundation
import HeadlinesCore
@testable import HeadlinesSecrets
import XCTest

/// The config's two sources in their order (password-command, then password-file), and the
/// sentence when neither gives a password. The Secret Service, asked before both, is tested
/// through the programs (EndToEndTests' SecretService*Tests), on a private session bus.
final class SyncPasswordOrderTests: XCTestCase {
    private let password = "pw-Distinct-7Q2xK9"
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("headlines-order-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: folder) }

    private func settings(command: [String]?, file: String?) -> SyncAccountSettings {
        var settings = SyncAccountSettings()
        settings.username = "alice"
        settings.passwordCommand = command
        settings.passwordFile = file
        return settings
    }

    private func privateFile(_ text: String) throws -> String {
        let path = folder.appendingPathComponent("pw").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    private func configured(_ settings: SyncAccountSettings) -> (found: SyncPassword.Found?, failures: [String]) {
        SyncPassword.configured(settings, environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
    }

    func testTheCommandComesBeforeTheFile() throws {
        let both = configured(settings(command: ["printf", "from-command"], file: try privateFile("from-file")))
        XCTAssertEqual(both.found?.password, "from-command")
        XCTAssertEqual(both.found?.source, .command("printf"))
        XCTAssertEqual(both.found?.failedFirst, [])
    }

    func testAFailingCommandFallsThroughToTheFileAndIsReported() throws {
        let path = try privateFile(password)
        let result = configured(settings(command: ["sh", "-c", "echo nope; exit 2"], file: path))
        XCTAssertEqual(result.found?.password, password)
        XCTAssertEqual(result.found?.source, .file(path))
        XCTAssertEqual(result.found?.failedFirst, ["password-command `sh` exited with status 2"])
        XCTAssertEqual(result.found?.source.description, "password-file \(path)")
    }

    func testWhenNothingGivesOneTheSentenceSaysWhatEachSourceSaid() throws {
        let path = folder.appendingPathComponent("missing").path
        let result = configured(settings(command: ["false"], file: path))
        XCTAssertNil(result.found)
        let problem = SyncPasswordProblem(secretService: .noItem, configured: result.failures, nothingConfigured: false)
        XCTAssertEqual(problem.description,
                       "none stored in the Secret Service; password-command `false` exited with status 1; password-file \(path) does not exist")
        let unset = SyncPasswordProblem(secretService: .unavailable("Could not connect: No such file or directory"), configured: [],
                                        nothingConfigured: true)
        XCTAssertEqual(unset.description,
                       "no Secret Service answers on the session bus, and neither password-command nor password-file is set")
        let refused = SyncPasswordProblem(secretService: .failed("Cannot unlock the collection."), configured: [], nothingConfigured: true)
        XCTAssertEqual(refused.description,
                       "the Secret Service did not answer (Cannot unlock the collection), and neither password-command nor password-file is set")
        XCTAssertEqual(configured(settings(command: nil, file: nil)).failures, [])
        // As the reload's error says it: one sentence naming the service and what to do.
        XCTAssertEqual(NewsError.missingCredential(detail: unset.description).message(provider: "Miniflux at rss.example.net",
                                                                                      kind: .syncService(login: "miniflux")),
                       "Miniflux at rss.example.net has no password to sign in with (no Secret Service answers on the session bus, and neither password-command nor password-file is set): store it with `headlines login miniflux`, or set [source] password-command or password-file.")
    }
}
