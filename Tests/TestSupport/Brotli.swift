import Foundation

/// Brotli streams for tests, made by hand: the toolchain, Debian's python3 and the test machine
/// have no brotli encoder, and libcurl's decoder is what is under test.
public enum Brotli {
    /// `data` as a valid brotli stream (RFC 7932) that stores it uncompressed: a window-size bit,
    /// one uncompressed meta-block of at most 64 KiB, then the empty last meta-block.
    public static func stored(_ data: Data) -> Data {
        precondition(!data.isEmpty && data.count <= 65536, "one stored meta-block holds 1 to 65536 bytes")
        // Bits from the lowest: WBITS 0 (a 64 KiB window), ISLAST 0, MNIBBLES 0 (four nibbles),
        // MLEN - 1 in 16 bits, ISUNCOMPRESSED 1, then zeros up to the byte boundary.
        let header = ((data.count - 1) << 4) | (1 << 20)
        let head = Data([UInt8(header & 0xFF), UInt8((header >> 8) & 0xFF), UInt8(header >> 16)])
        // ISLAST 1 and ISLASTEMPTY 1: the stream ends.
        return head + data + Data([0x03])
    }
}
