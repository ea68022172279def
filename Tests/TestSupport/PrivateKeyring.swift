import Foundation
import XCTest

/// A real Secret Service for one test: gnome-keyring-daemon's secrets component alone, on a
/// private session bus of its own, its login collection created (or unlocked) with a password
/// handed on stdin. Its files live under `home`; `secretTool` reads what it holds, as another
/// client would.
public final class PrivateKeyring {
    public let bus: PrivateBus
    private let process: Process
    private let home: URL
    static let daemon = "/usr/bin/gnome-keyring-daemon"
    static let secretTool = "/usr/bin/secret-tool"
    static let gdbus = "/usr/bin/gdbus"

    /// `folder` holds the bus; `home` and `runtime` are the daemon's HOME and XDG_RUNTIME_DIR
    /// (the keyring files and its control socket).
    public init(folder: URL, home: URL, runtime: URL) throws {
        for program in [Self.daemon, Self.secretTool, Self.gdbus] where !FileManager.default.isExecutableFile(atPath: program) {
            throw XCTSkip("\(program) is not installed, and this test needs a real Secret Service (`make test` installs it)")
        }
        bus = try PrivateBus(folder: folder)
        self.home = home
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.daemon)
        process.arguments = ["--foreground", "--unlock", "--components=secrets"]
        process.environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path, "XDG_RUNTIME_DIR": runtime.path,
                               "PATH": "/usr/bin:/bin"]
        let unlock = Pipe()
        process.standardInput = unlock
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try unlock.fileHandleForWriting.write(contentsOf: Data("keyring-unlock-password".utf8))
        try unlock.fileHandleForWriting.close()
        // Ready once it owns the Secret Service's name.
        let deadline = Date().addingTimeInterval(30)
        while try !call(Self.gdbus, ["call", "--address", bus.address, "--dest", "org.freedesktop.DBus",
                                     "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner",
                                     "org.freedesktop.secrets"]).output.contains("true") {
            guard Date() < deadline, process.isRunning else {
                stop()
                throw PrivateKeyringFailure(description: "gnome-keyring-daemon did not take org.freedesktop.secrets on the private bus")
            }
            usleep(50_000)
        }
    }

    /// What a client of this keyring needs in its environment.
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": bus.address] }

    /// `secret-tool lookup`: the secret stored under exactly these attributes, nil when none is.
    public func lookup(_ attributes: [String: String]) throws -> String? {
        let result = try call(Self.secretTool, ["lookup"] + Self.words(attributes))
        return result.status == 0 ? result.output : nil
    }

    /// The labels of every item carrying these attributes (`secret-tool search --all`).
    public func labels(_ attributes: [String: String]) throws -> [String] {
        try call(Self.secretTool, ["search", "--all"] + Self.words(attributes)).output
            .split(separator: "\n").filter { $0.hasPrefix("label = ") }.map { String($0.dropFirst("label = ".count)) }
    }

    public func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        bus.stop()
    }

    deinit { stop() }

    private static func words(_ attributes: [String: String]) -> [String] {
        attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
    }

    /// Runs a client on the private bus: its exit status and stdout (stderr dropped).
    private func call(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let client = Process()
        client.executableURL = URL(fileURLWithPath: program)
        client.arguments = arguments
        client.environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path, "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        client.standardOutput = out
        client.standardError = FileHandle.nullDevice
        client.standardInput = FileHandle.nullDevice
        try client.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        client.waitUntilExit()
        return (client.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

public struct PrivateKeyringFailure: Error, CustomStringConvertible {
    public var description: String
}
