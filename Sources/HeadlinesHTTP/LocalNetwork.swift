import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// An IP address and port, as a socket connects to it.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), network order.
    public var bytes: [UInt8]
    public var port: UInt16

    public init(bytes: [UInt8], port: UInt16 = 0) {
        self.bytes = bytes
        self.port = port
    }

    /// A numeric address ("127.0.0.1", "::1", "[fe80::1]"), IPv4 in every spelling libcurl and
    /// inet_aton read as one ("2130706433", "0x7f.1", "127.1"); nil for a name.
    public init?(literal text: String, port: UInt16 = 0) {
        var host = text
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var v4 = in_addr()
        var v6 = in6_addr()
        let numeric = !host.isEmpty && host.utf8.allSatisfy { $0 == 0x2E || $0 == 0x78 || $0 == 0x58 || ($0 >= 0x30 && $0 <= 0x39)
            || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
        if numeric, inet_aton(host, &v4) != 0 {
            self.init(bytes: withUnsafeBytes(of: v4) { Array($0) }, port: port)
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            self.init(bytes: withUnsafeBytes(of: v6) { Array($0) }, port: port)
        } else {
            return nil
        }
    }

    /// The address of an AF_INET or AF_INET6 socket address; nil for any other family.
    init?(_ address: UnsafeRawPointer, length: Int) {
        let family = address.loadUnaligned(as: sa_family_t.self)
        if Int32(family) == AF_INET, length >= MemoryLayout<sockaddr_in>.size {
            let v4 = address.loadUnaligned(as: sockaddr_in.self)
            self.init(bytes: withUnsafeBytes(of: v4.sin_addr) { Array($0) }, port: UInt16(bigEndian: v4.sin_port))
        } else if Int32(family) == AF_INET6, length >= MemoryLayout<sockaddr_in6>.size {
            let v6 = address.loadUnaligned(as: sockaddr_in6.self)
            self.init(bytes: withUnsafeBytes(of: v6.sin6_addr) { Array($0) }, port: UInt16(bigEndian: v6.sin6_port))
        } else {
            return nil
        }
    }

    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return bytes.count == 4 ? "\(host):\(port)" : "[\(host)]:\(port)"
    }
}

/// This machine and its local network: the addresses an image from the outside must never make
/// headlines connect to, because a service there (a router's page, a local admin port) trusts
/// whoever can reach it. One rule, used for the address each connection actually opens (every
/// redirect hop, whatever DNS answered) and for the hosts URLs name.
public enum LocalNetwork {
    /// Loopback, unspecified, link-local, private (RFC 1918, fc00::/7), shared (RFC 6598) and
    /// site-local addresses, IPv4 also when written inside IPv6 (mapped, compatible, NAT64).
    public static func contains(_ address: IPAddress) -> Bool {
        let b = address.bytes
        if b.count == 4 { return containsIPv4(b[0], b[1]) }
        guard b.count == 16 else { return true }
        let head = b.prefix(12)
        if head.allSatisfy({ $0 == 0 }) {
            // :: and ::1, then the deprecated IPv4-compatible ::a.b.c.d.
            return b[12] == 0 && b[13] == 0 && b[14] == 0 ? b[15] <= 1 : containsIPv4(b[12], b[13])
        }
        if head == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] || head == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
            return containsIPv4(b[12], b[13])
        }
        if b[0] & 0xFE == 0xFC { return true }                 // fc00::/7 unique local
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return true }   // fe80::/10 link-local
        if b[0] == 0xFE, b[1] & 0xC0 == 0xC0 { return true }   // fec0::/10 site-local
        return false
    }

    private static func containsIPv4(_ a: UInt8, _ b: UInt8) -> Bool {
        switch (a, b) {
        case (0, _), (10, _), (127, _): return true
        case (100, 64...127): return true
        case (169, 254), (192, 168): return true
        case (172, 16...31): return true
        default: return false
        }
    }

    /// True when a URL's host is on this network by its very name: an address inside it, or
    /// localhost (RFC 6761 reserves every *.localhost for the machine itself). Other names say
    /// nothing until they are resolved.
    public static func named(host: String) -> Bool {
        let name = host.lowercased().trimmingTrailingDots
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        return IPAddress(literal: name).map(contains) ?? false
    }

    /// True when every one of `sources` is on this network by its name (and there is one): then
    /// images from this network are the source's own.
    public static func holdsAll(_ sources: [URL]) -> Bool {
        !sources.isEmpty && sources.allSatisfy { named(host: $0.host ?? "") }
    }
}

private extension String {
    var trimmingTrailingDots: String {
        var s = Substring(self)
        while s.hasSuffix(".") { s = s.dropLast() }
        return String(s)
    }
}
