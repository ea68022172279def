import Foundation
import TestSupport
import XCTest

/// The resident host maps only the code pages it runs (issue 14): its program and library
/// mappings are registered with userfaultfd for write-protect tracking, which is what turns the
/// kernel's fault-around off (CHostMemory/fault_around.c). smaps shows the registration as the
/// `uw` VmFlag. make bench shows what it is worth; this test shows that it happens.
final class HostFaultAroundTests: HostTestCase {
    /// VmFlags of each mapping of `pid` whose path ends with `suffix`.
    private func vmFlags(of pid: Int32, pathSuffix suffix: String) throws -> [[String]] {
        // (Read to the end: procfs files report size 0, and a size-based read stops early.)
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps") else { return [] }
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var flags: [[String]] = []
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                inMapping = fields.count >= 6 && fields[5].hasSuffix(suffix)
            } else if inMapping, line.hasPrefix("VmFlags:") {
                flags.append(fields.dropFirst().map(String.init))
            }
        }
        return flags
    }

    /// nil when this kernel lets an unprivileged process use userfaultfd with WP_ASYNC; else why not.
    private func runProbe() throws -> String? {
        let script = """
        import ctypes, fcntl, os, struct, sys
        nr = {"x86_64": 323, "aarch64": 282}.get(os.uname().machine)
        if nr is None: sys.exit("no userfaultfd number for " + os.uname().machine)
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.syscall(nr, os.O_CLOEXEC | 1)  # UFFD_USER_MODE_ONLY
        if fd < 0: sys.exit("userfaultfd: " + os.strerror(ctypes.get_errno()))
        api = bytearray(struct.pack("QQQ", 0xAA, 1 << 15, 0))  # UFFD_API, UFFD_FEATURE_WP_ASYNC
        try: fcntl.ioctl(fd, 0xC018AA3F, api)  # UFFDIO_API
        except OSError as e: sys.exit("UFFDIO_API with WP_ASYNC: " + e.strerror)
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus == 0 { return nil }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testTheHostsCodeFaultsPageByPage() throws {
        // The kernel must offer it (Linux 6.7's asynchronous write-protect mode, userfaultfd not
        // blocked). Asked independently of the code under test, by Python's ctypes. (The test
        // bundle does not link CHostMemory: valgrind 3.19, which the memory suite runs the bundle
        // under, cannot read the bundle's debug info with it.)
        let probe = try runProbe()
        if let reason = probe {
            throw XCTSkip("this kernel keeps fault-around (\(reason)); the host runs as before")
        }
        // Given a host that has done its first reload
        try writeConfig(interval: "1h", dailyBudget: 10)
        let host = try startHost(verbose: true)
        try expectLine("code mapped page by page", from: host, within: 10)
        try expectLine("reload ok", from: host, within: 10)

        // Then its own code and libc's are registered (VmFlag uw), and no shared mapping is
        let program = try vmFlags(of: host.pid, pathSuffix: "/headlines-host")
        XCTAssertFalse(program.isEmpty, "no mapping of headlines-host in smaps")
        XCTAssertTrue(program.allSatisfy { $0.contains("uw") }, "headlines-host mappings' VmFlags: \(program)")
        let libc = try vmFlags(of: host.pid, pathSuffix: "/libc.so.6")
        XCTAssertTrue(!libc.isEmpty && libc.allSatisfy { $0.contains("uw") }, "libc mappings' VmFlags: \(libc)")
        let shared = try vmFlags(of: host.pid, pathSuffix: "").filter { $0.contains("sh") && $0.contains("uw") }
        XCTAssertEqual(shared, [], "shared mappings registered")
    }
}
