import Dispatch
import Foundation
import HeadlinesCore
import HeadlinesSources
import XCTest

/// Every file the host, the CLI and the reload child read is opened without blocking and read only
/// when it is a regular file: a FIFO planted at any state file's path is reported by name and
/// skipped, never waited on (a blocked open(2) ignores SIGTERM).
final class FIFOAtStateFileTests: XCTestCase {
    private var dir = ""
    private var paths: XDGPaths!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "fifo-state-\(UUID().uuidString)"
        paths = XDGPaths(environment: ["HOME": dir, "XDG_CACHE_HOME": dir + "/cache", "XDG_STATE_HOME": dir + "/state",
                                       "XDG_CONFIG_HOME": dir + "/config", "XDG_RUNTIME_DIR": dir + "/run"])
        for folder in [paths.cacheDir, paths.stateDir, paths.runtimeHeadlinesDir, PathText.directory(of: paths.configFile)] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Runs `read` with a FIFO at `path`; fails (and unblocks it) when it does not return at once.
    /// Returns what it warned.
    private func readWithFIFO(at path: String, _ read: @escaping @Sendable (@escaping @Sendable (String) -> Void) -> Void) -> [String] {
        XCTAssertEqual(mkfifo(path, 0o600), 0, path)
        let warnings = Warnings()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            read { warnings.add($0) }
            done.signal()
        }
        if done.wait(timeout: .now() + 2) == .timedOut {
            XCTFail("reading \(path) blocked on a FIFO")
            // A writer end lets the blocked open(2) return, so the thread ends.
            let fd = open(path, O_WRONLY)
            if fd >= 0 { close(fd) }
            _ = done.wait(timeout: .now() + 2)
        }
        return warnings.all
    }

    private final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    func testAFIFOAtAnyStateFileIsReportedByNameAndNeverWaitedOn() {
        let now = Date()
        let p = paths!
        let readers: [(String, @Sendable (@escaping @Sendable (String) -> Void) -> Void)] = [
            (p.ledgerFile, { warn in _ = LedgerStore(path: p.ledgerFile).load(now: now, warn: warn) }),
            (p.seenFile, { warn in _ = JSONStateFile(seenSetAt: p.seenFile).load(now: now, warn: warn) }),
            (p.mutedFile, { warn in _ = JSONStateFile(mutedSourcesAt: p.mutedFile).load(now: now, warn: warn) }),
            (p.statusFile, { warn in _ = RefreshStatusStore(path: p.statusFile).load(now: now, warn: warn) }),
            (p.cacheFile, { warn in _ = HeadlineCache(path: p.cacheFile).load(now: now, warn: warn) }),
            (p.feedStateFile, { warn in _ = FeedStateStore(path: p.feedStateFile).load(now: now, warn: warn) }),
            (p.rotationOffsetFile, { warn in _ = JSONStateFile(rotationOffsetAt: p.rotationOffsetFile).load(now: now, warn: warn) }),
        ]
        for (path, read) in readers {
            let warnings = readWithFIFO(at: path, read)
            XCTAssertEqual(warnings.count, 1, "\(path): \(warnings)")
            XCTAssertTrue(warnings.first.map { $0.contains(PathText.lastComponent(of: path)) && $0.contains("FIFO") || $0.contains("not a regular file") } ?? false,
                          "\(path): \(warnings)")
        }
    }
}
