@testable import HeadlinesDesktop
import XCTest

/// The environment of what a notification click starts (the browser, the launcher): the token the
/// server sent in both variables, none when it sent none, and a command's own token untouched.
final class ActivationEnvironmentTests: XCTestCase {
    private let inherited = ["PATH": "/usr/bin", "XDG_ACTIVATION_TOKEN": "spent", "DESKTOP_STARTUP_ID": "spent"]

    func testAServersTokenIsInBothVariables() {
        let env = ProcessLauncher.environment(inherited, activation: .token("fresh"))
        XCTAssertEqual(env, ["PATH": "/usr/bin", "XDG_ACTIVATION_TOKEN": "fresh", "DESKTOP_STARTUP_ID": "fresh"])
    }

    func testNoTokenOrAnEmptyOneRemovesBoth() {
        XCTAssertEqual(ProcessLauncher.environment(inherited, activation: .token(nil)), ["PATH": "/usr/bin"])
        XCTAssertEqual(ProcessLauncher.environment(inherited, activation: .token("")), ["PATH": "/usr/bin"])
    }

    func testACommandStartedForOneClickPassesOnWhatItWasGiven() {
        XCTAssertEqual(ProcessLauncher.environment(inherited, activation: .inherited), inherited)
    }
}
