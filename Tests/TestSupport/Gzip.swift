import Foundation

/// gzip through the system's /bin/gzip: the toolchain has no zlib module, and the tests must not
/// pull in packages.
public enum Gzip {
    static func compress(_ data: Data) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: "/bin/gzip") ? "/bin/gzip" : "/usr/bin/gzip")
        process.arguments = ["-c", "-n", "-9"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        // Write from another thread so a large body cannot deadlock against a full output pipe.
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? compressed : nil
    }
}

extension Gzip {
    /// gzip for tests that need to corrupt a compressed body; empty if /bin/gzip failed.
    public static func compressForTests(_ data: Data) -> Data { compress(data) ?? Data() }
}
