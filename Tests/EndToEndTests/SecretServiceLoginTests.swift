import Foundation
import HeadlinesCore
import TestSupport
import XCTest

/// `headlines login` and `headlines doctor` against a real Secret Service (gnome-keyring-daemon
/// on a private session bus): the password is stored where the reload looks first, under the
/// account's four attributes, replaced by a second login, and never shown; without a Secret
/// Service, login says what to set instead.
final class SecretServiceLoginTests: SyncPasswordTestCase {
    func testLoginStoresThePasswordWhereDoctorThenFindsItFirst() throws {
        let keyring = try startKeyring()
        // A password-command too: before the login it is what gives the password, after it the
        // Secret Service comes first. Its file is the test's own, outside the folders searched.
        let other = cli.root.appendingPathComponent("other-password")
        try Data("other-password\n".utf8).write(to: other)
        try cli.writeConfig(minifluxConfig("password-command = cat \(other.path)\n"))
        XCTAssertTrue(try doctorConfigLine(keyring.environment).hasSuffix(tookPassword(from: "password-command `cat`")))
        XCTAssertEqual(tokensSent, ["other-password"])

        let login = try cli.run(["login", "miniflux"], environment: keyring.environment, input: Data("\(Self.password)\n".utf8))
        XCTAssertEqual(login.status, 0, login.stderr)
        let label = "miniflux \(server.baseURL.absoluteString)"
        XCTAssertEqual(login.stdout, "Stored the password of \(label) in the Secret Service (its collection \"Login\"); headlines reads it from there.\n")
        XCTAssertEqual(login.stderr, "")
        XCTAssertEqual(try keyring.lookup(Self.attributes(provider: "miniflux", baseURL: server.baseURL.absoluteString, username: "")),
                       Self.password, "not under the account's four attributes")
        XCTAssertEqual(try keyring.labels(["application": "headlines"]), ["headlines: \(label)"])
        // What doctor found is exactly what was stored: the server got it.
        XCTAssertTrue(try doctorConfigLine(keyring.environment).hasSuffix(tookPassword(from: "the Secret Service")))
        XCTAssertEqual(tokensSent, ["other-password", Self.password])
        assertNowhere(Self.password, in: [login])
    }

    /// The reload child finds the password before it sandboxes itself, libsecret's bus
    /// connection still open after: the sandbox must take that, and the sign-in must work.
    func testTheSandboxedReloadChildSignsInWithThePasswordLoginStored() throws {
        let keyring = try startKeyring()
        try cli.writeConfig(minifluxConfig())
        let login = try cli.run(["login", "miniflux"], environment: keyring.environment, input: Data(Self.password.utf8))
        XCTAssertEqual(login.status, 0, login.stderr)
        server.route("/v1/entries", .json(FixturePaths.data("sync/miniflux-entries.json")))
        // No token from a host on its stdin: the child looks the password up.
        let reload = try cli.reload(["--verbose"], environment: keyring.environment)
        XCTAssertEqual(reload.status, 0, reload.stderr)
        XCTAssertTrue(reload.stderr.contains("reload child sandboxed: no_new_privs, ") && reload.stderr.contains(", seccomp filter"),
                      reload.stderr)
        let report = try StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(reload.stdout.utf8))
        XCTAssertNil(report.failure, report.failure?.message ?? "")
        XCTAssertEqual(report.headlines.count, 4)
        XCTAssertEqual(tokensSent, [Self.password])
        XCTAssertFalse(reload.stderr.contains(Self.password), reload.stderr)
    }

    func testASecondLoginReplacesTheFirstPassword() throws {
        let keyring = try startKeyring()
        try cli.writeConfig(Self.greaderConfig)
        for password in ["first-\(Self.password)", Self.password] {
            let login = try cli.run(["login", "greader"], environment: keyring.environment, input: Data(password.utf8))
            XCTAssertEqual(login.status, 0, login.stderr)
        }
        XCTAssertEqual(try keyring.lookup(Self.attributes(provider: "greader", baseURL: Self.greaderURL, username: "alice")), Self.password)
        XCTAssertEqual(try keyring.labels(["application": "headlines"]).count, 1, "a second item instead of the first replaced")
    }

    func testWithoutASecretServiceLoginStoresNothingAndSaysWhatToSet() throws {
        try cli.writeConfig(Self.greaderConfig)
        // No session bus at all, then a bus on which nobody owns org.freedesktop.secrets.
        let bus = try PrivateBus(folder: cli.root.appendingPathComponent("empty-bus"))
        defer { bus.stop() }
        for environment in [["DBUS_SESSION_BUS_ADDRESS": "disabled:"], ["DBUS_SESSION_BUS_ADDRESS": bus.address]] {
            let login = try cli.run(["login", "greader"], environment: environment, input: Data(Self.password.utf8))
            XCTAssertEqual(login.status, 1, login.stderr)
            XCTAssertEqual(login.stderrLines.count, 1, login.stderr)
            XCTAssertTrue(login.stderr.hasPrefix("headlines: no Secret Service answers on the session bus ("), login.stderr)
            XCTAssertTrue(login.stderr.hasSuffix("so the password was not stored: set [source] password-command or password-file instead (see headlines.conf(5)).\n"),
                          login.stderr)
            assertNowhere(Self.password, in: [login])
        }
    }

    func testLoginTakesTheAccountOfTheProviderNamedAndAsksForAWidgetWhenTwoReadIt() throws {
        let keyring = try startKeyring()
        try cli.writeConfig("""
            [widget home]
            provider = greader
            base-url = \(Self.greaderURL)
            username = alice

            [widget work]
            provider = greader
            base-url = \(Self.greaderURL)
            username = bob

            [widget news]
            provider = hackernews
            """)
        let both = try cli.run(["login", "greader"], environment: keyring.environment, input: Data(Self.password.utf8))
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("several widgets of ") && both.stderr.hasSuffix("read a greader account (home, work): name one with --widget NAME.\n"),
                      both.stderr)
        let work = try cli.run(["login", "--widget", "work", "greader"], environment: keyring.environment, input: Data(Self.password.utf8))
        XCTAssertEqual(work.status, 0, work.stderr)
        XCTAssertEqual(try keyring.lookup(Self.attributes(provider: "greader", baseURL: Self.greaderURL, username: "bob")), Self.password)
        XCTAssertNil(try keyring.lookup(Self.attributes(provider: "greader", baseURL: Self.greaderURL, username: "alice")))

        for (argv, sentence) in [
            (["login", "fever"], "reads no fever account (it reads greader: run headlines login greader for that)"),
            (["login", "--widget", "news", "greader"], "[widget news] in "),
            (["login", "hackernews"], "headlines: login takes the provider of the sync service to sign in to (greader, fever, miniflux, nextcloud)"),
            (["login"], "headlines: login takes the provider"),
        ] {
            let refused = try cli.run(argv, environment: keyring.environment, input: Data(Self.password.utf8))
            XCTAssertEqual(refused.status, 2, "\(argv): \(refused.stderr)")
            XCTAssertEqual(refused.stderrLines.count, 1, "\(argv): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains(sentence), "\(argv): \(refused.stderr)")
        }
        XCTAssertEqual(try keyring.labels(["application": "headlines"]).count, 1, "a refused login stored something")
    }

    func testTwoWidgetsReadingTheSameAccountNeedNoWidgetName() throws {
        let keyring = try startKeyring()
        let account = "provider = greader\nbase-url = \(Self.greaderURL)\nusername = alice\n"
        try cli.writeConfig("[widget top]\n\(account)page-size = 3\n\n[widget all]\n\(account)")
        let login = try cli.run(["login", "greader"], environment: keyring.environment, input: Data(Self.password.utf8))
        XCTAssertEqual(login.status, 0, login.stderr)
        XCTAssertEqual(try keyring.lookup(Self.attributes(provider: "greader", baseURL: Self.greaderURL, username: "alice")), Self.password)
    }
}
