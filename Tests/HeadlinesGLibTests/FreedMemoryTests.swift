import Foundation
import HeadlinesGLib
import XCTest

/// Freed chunks in the middle of the heap (between blocks still in use, so glibc cannot simply
/// lower the heap's top) go back to the kernel: the process's private dirty memory falls.
final class FreedMemoryTests: XCTestCase {
    private func privateDirtyKB() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/smaps_rollup", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("Private_Dirty:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func testFreedChunksBetweenLiveOnesGoBackToTheKernel() throws {
        // ThreadSanitizer brings its own allocator, which malloc_trim knows nothing of.
        if ProcessInfo.processInfo.environment["HEADLINES_TSAN"] != nil { throw XCTSkip("glibc's malloc is replaced under ThreadSanitizer") }
        // Every other block stays in use, so no freed one can merge with its neighbours or the top.
        let block = 64 * 1024
        var freed: [UnsafeMutableRawPointer] = []
        var kept: [UnsafeMutableRawPointer] = []
        for k in 0..<64 {
            let p = malloc(block)!
            memset(p, 1, block)
            if k % 2 == 0 { freed.append(p) } else { kept.append(p) }
        }
        freed.forEach { free($0) }
        let before = privateDirtyKB()
        FreedMemory.giveBack()
        let after = privateDirtyKB()
        kept.forEach { free($0) }
        XCTAssertGreaterThan(before - after, 32 * 64 / 2, "private dirty \(before) kB -> \(after) kB")
    }
}
