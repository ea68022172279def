import Foundation
import TestSupport
import XCTest

/// `headlines login` on a terminal (a pseudo-terminal the test types into): the password is
/// asked for with the echo off, so it never shows, and the echo comes back after, also when the
/// prompt is interrupted.
final class SecretServicePromptTests: SyncPasswordTestCase {
    private var terminal: PseudoTerminal!

    override func tearDown() {
        terminal?.close()
        terminal = nil
        super.tearDown()
    }

    /// `headlines login greader` with the terminal as its stdin, stdout and stderr, once its
    /// prompt is there (`prompted`: false, as soon as it started).
    private func startLogin(_ environment: [String: String], prompted: Bool = true) throws -> Process {
        terminal = try PseudoTerminal()
        try cli.writeConfig(Self.greaderConfig)
        let process = Process()
        let command = cli.launchCommand(["login", "greader"])
        process.executableURL = command.executable
        process.arguments = command.arguments
        process.environment = cli.environment(environment)
        let handle = FileHandle(fileDescriptor: terminal.replica, closeOnDealloc: false)
        (process.standardInput, process.standardOutput, process.standardError) = (handle, handle, handle)
        try process.run()
        guard prompted else { return process }
        let prompt = "Password for greader alice@\(Self.greaderURL): "
        XCTAssertTrue(terminal.read(until: { $0.contains(prompt) }, seconds: 30), "no prompt; the terminal shows: \(terminal.shown)")
        return process
    }

    /// Waits for the program to end; one still running after a generous while is killed and fails
    /// the test (it is waiting for a password nobody types).
    private func waitForExit(_ process: Process, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTFail("headlines login was still running; the terminal shows: \(terminal.shown)", file: file, line: line)
    }

    func testThePasswordTypedIsNotShownAndIsStored() throws {
        let keyring = try startKeyring()
        let login = try startLogin(keyring.environment)
        XCTAssertFalse(terminal.echoes, "the echo is on while the password is typed")
        terminal.type("\(Self.password)\n")
        XCTAssertTrue(terminal.read(until: { $0.contains("headlines reads it from there.") }, seconds: 30), terminal.shown)
        waitForExit(login)
        XCTAssertEqual(login.terminationStatus, 0, terminal.shown)
        XCTAssertFalse(terminal.shown.contains(Self.password), "the terminal showed the password: \(terminal.shown)")
        XCTAssertTrue(terminal.echoes, "the echo stayed off")
        XCTAssertEqual(try keyring.lookup(Self.attributes(provider: "greader", baseURL: Self.greaderURL, username: "alice")), Self.password)
    }

    func testWithNoSecretServiceNobodyIsAskedForAPassword() throws {
        let login = try startLogin(["DBUS_SESSION_BUS_ADDRESS": "disabled:"], prompted: false)
        XCTAssertTrue(terminal.read(until: { $0.contains("password-command or password-file instead") }, seconds: 30), terminal.shown)
        waitForExit(login)
        XCTAssertEqual(login.terminationStatus, 1)
        XCTAssertFalse(terminal.shown.contains("Password for"), "a prompt for a password that cannot be stored: \(terminal.shown)")
    }

    func testAnInterruptedPromptGivesTheEchoBackAndStoresNothing() throws {
        let keyring = try startKeyring()
        let login = try startLogin(keyring.environment)
        XCTAssertFalse(terminal.echoes, "the echo is on while the password is typed")
        kill(login.processIdentifier, SIGINT)
        waitForExit(login)
        XCTAssertEqual(login.terminationReason, .uncaughtSignal)
        XCTAssertEqual(login.terminationStatus, SIGINT)
        XCTAssertTrue(terminal.echoes, "the echo stayed off after Ctrl-C")
        XCTAssertEqual(try keyring.labels(["application": "headlines"]), [])
    }
}

/// A pseudo-terminal: the program gets the replica end as its terminal; the test reads what it
/// shows and types through the primary end.
private final class PseudoTerminal {
    let primary: Int32
    let replica: Int32
    private(set) var shown = ""

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// /dev/ptmx by hand: Swift's Glibc has no posix_openpt, grantpt, unlockpt or ptsname, nor
    /// the ioctl numbers (C macros), which are the generic ones of x86-64 and arm64 here.
    private static let unlockRequest: UInt = 0x4004_5431, numberRequest: UInt = 0x8004_5430

    init() throws {
        primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard primary >= 0, ioctl(primary, Self.unlockRequest, &unlock) == 0, ioctl(primary, Self.numberRequest, &number) == 0 else {
            throw Failure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        replica = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard replica >= 0 else { throw Failure(description: "cannot open /dev/pts/\(number): \(String(cString: strerror(errno)))") }
        _ = fcntl(primary, F_SETFL, fcntl(primary, F_GETFL) | O_NONBLOCK)
    }

    /// Whether the terminal echoes what is typed now.
    var echoes: Bool {
        var settings = termios()
        return tcgetattr(replica, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    func type(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
    }

    /// Reads what the program shows until `done` holds for all of it, or `seconds` pass.
    func read(until done: (String) -> Bool, seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !done(shown) {
            guard Date() < deadline else { return false }
            var ready = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(primary, $0.baseAddress, $0.count) }
            if n > 0 { shown += String(decoding: buffer[0..<n], as: UTF8.self) }
        }
        return true
    }

    func close() {
        _ = Glibc.close(replica)
        _ = Glibc.close(primary)
    }
}
