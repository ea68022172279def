import Foundation
import XCTest

/// A private session bus (`dbus-daemon`) for one test: the hosts a test starts own their name on
/// it and the CLI reaches them there. With `activating`, the bus starts that command line when a
/// client calls the host and none runs, as the installed service file makes the session bus do;
/// without, nothing is ever activated on it.
public final class PrivateBus {
    public let address: String
    static let daemon = "/usr/bin/dbus-daemon"
    private let process: Process

    /// Starts the daemon with its config and socket under `folder`; throws when it does not say its address.
    /// `environment`: the daemon's, which what it activates inherits.
    public init(folder: URL, activating command: [String]? = nil, environment: [String: String]? = nil) throws {
        // `make check` runs on a machine with only the toolchain and the build's libraries: there
        // the tests that need a session bus are skipped, saying so, never passed.
        guard FileManager.default.isExecutableFile(atPath: Self.daemon) else {
            throw XCTSkip("\(Self.daemon) is not installed, and this test needs a private session bus (`make test` installs it)")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("bus.conf")
        var services = ""
        if let command {
            let dir = folder.appendingPathComponent("services")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try "[D-BUS Service]\nName=org.headlines.Headlines\nExec=\(command.joined(separator: " "))\n"
                .write(to: dir.appendingPathComponent("org.headlines.Headlines.service"), atomically: true, encoding: .utf8)
            services = "<servicedir>\(dir.path)</servicedir>"
        }
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(folder.path)/bus</listen>\(services)
              <policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.daemon)
        process.arguments = ["--config-file=\(config.path)", "--nofork", "--print-address=1"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        if let environment { process.environment = environment }
        try process.run()
        // The first line is the address, written once the socket listens.
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([10]) { line.append(byte) }
        guard let text = String(data: line, encoding: .utf8), !text.isEmpty else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        address = text
    }

    /// `gdbus call` of `method` on the host's interface: its exit status and output.
    public func callHost(_ method: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let call = Process()
        call.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        call.arguments = ["call", "--address", address, "--dest", "org.headlines.Headlines",
                          "--object-path", "/org/headlines/Headlines", "--method", "org.headlines.Headlines1." + method] + arguments
        let out = Pipe()
        call.standardOutput = out
        call.standardError = out
        try call.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        call.waitUntilExit()
        return (call.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Whether a process owns the host's bus name now (asking never starts one).
    public var hostIsOnTheBus: Bool {
        let call = Process()
        call.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        call.arguments = ["call", "--address", address, "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                          "--method", "org.freedesktop.DBus.NameHasOwner", "org.headlines.Headlines"]
        let out = Pipe()
        call.standardOutput = out
        call.standardError = FileHandle.nullDevice
        guard (try? call.run()) != nil else { return false }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        call.waitUntilExit()
        return String(decoding: data, as: UTF8.self).contains("true")
    }

    public func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }

    deinit { stop() }
}

extension CLIRunner {
    /// A private bus that starts this build's host on the default config file when a command asks
    /// for one (as the installed service file does), and the environment that reaches it. The
    /// caller stops the bus.
    public func activatingBus(_ extra: [String: String] = [:]) throws -> (bus: PrivateBus, environment: [String: String]) {
        let host = executable.deletingLastPathComponent().appendingPathComponent("headlines-host").path
        let bus = try PrivateBus(folder: root.appendingPathComponent("bus"), activating: [host, "--from-bar"],
                                 environment: environment(extra))
        return (bus, extra.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 })
    }
}
