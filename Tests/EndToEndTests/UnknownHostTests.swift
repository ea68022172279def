import Foundation
import TestSupport
import XCTest

/// A base-url whose host name does not resolve ends in one sentence saying so.
final class UnknownHostTests: EndToEndTestCase {
    /// `unshare` with the options that give an unprivileged or a root user a network namespace
    /// holding only loopback here, or nil when neither is allowed.
    private func privateNetwork() -> [String]? {
        for options in [["-n"], ["-r", "-n"]] {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            probe.arguments = options + ["true"]
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { return nil }
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return ["/usr/bin/unshare"] + options }
        }
        return nil
    }

    func testAnUnresolvableHostIsOneSentence() throws {
        // glibc sends even a .invalid name to the nameserver in resolv.conf, which would leave the
        // machine; in a network namespace of its own the lookup fails at once and nothing leaves.
        guard let unshare = privateNetwork() else {
            throw XCTSkip("no private network namespace is allowed here, and a real lookup would leave the machine")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: unshare[0])
        process.arguments = Array(unshare.dropFirst()) + [cli.executable.path, "fetch", "--provider", "apitube",
                                                          "--base-url", "https://nonexistent.invalid"]
        process.environment = cli.environment(["APITUBE_API_KEY": Self.apitubeKey])
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, stderr)
        XCTAssertEqual(stderr, "headlines: APITube could not be reached (unknown host): check the network and [source] base-url.\n")
    }
}
