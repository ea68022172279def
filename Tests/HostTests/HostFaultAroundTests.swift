import CHostMemory
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

    func testTheHostsCodeFaultsPageByPage() throws {
        // The kernel must offer it (Linux 6.7's asynchronous write-protect mode, userfaultfd not
        // blocked): the test process asks for itself first, the same way the host does.
        let own = chm_map_only_touched_pages()
        if own <= 0 {
            throw XCTSkip("this kernel keeps fault-around (userfaultfd: \(String(cString: strerror(-own)))); the host runs as before")
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
