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

extension Gzip {
    /// A gzip stream of zeros that never ends, for `.endless`: `head` once, then `unit` as often as
    /// wanted. Each 13 bytes of `unit` decode to 2064 zero bytes, so a client that caps the bytes
    /// on the wire rather than the decoded ones is flooded. Written by hand, since /bin/gzip only
    /// makes streams that end: one fixed-Huffman deflate block (RFC 1951 3.2.6) holding a literal
    /// zero, then "copy 258 bytes from 1 back" again and again, never closed.
    public static let endlessZeros: (head: Data, unit: Data) = {
        var bits = BitWriter()
        bits.write(0, count: 1)           // BFINAL: not the last block
        bits.write(1, count: 2)           // BTYPE 01: fixed Huffman codes
        bits.writeCode(0x30, count: 8)    // literal 0
        // One copy here brings the bit count to 24, a whole number of bytes; eight more copies
        // are 104 bits, 13 bytes, which can be repeated as they are.
        func copy(_ bits: inout BitWriter) {
            bits.writeCode(0xC5, count: 8)  // length code 285: 258 bytes, no extra bits
            bits.writeCode(0, count: 5)     // distance code 0: 1 back, no extra bits
        }
        copy(&bits)
        let header = Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03])
        let head = header + bits.take()
        for _ in 0..<8 { copy(&bits) }
        return (head, bits.take())
    }()

    /// Bits packed least significant first, as deflate stores them.
    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var current: UInt8 = 0
        private var used = 0

        mutating func write(_ value: Int, count: Int) {
            for k in 0..<count { push((value >> k) & 1) }
        }

        /// Huffman codes go in most significant bit first.
        mutating func writeCode(_ code: Int, count: Int) {
            for k in stride(from: count - 1, through: 0, by: -1) { push((code >> k) & 1) }
        }

        private mutating func push(_ bit: Int) {
            current |= UInt8(bit) << used
            used += 1
            if used == 8 { bytes.append(current); current = 0; used = 0 }
        }

        /// The whole bytes written since the last take (the count must be a multiple of 8).
        mutating func take() -> Data {
            precondition(used == 0, "not a whole number of bytes")
            defer { bytes = [] }
            return Data(bytes)
        }
    }
}
