import CCurl  // SOCK_STREAM: in this module the socket headers arrive through curl.h
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where a transfer may not go: hosts its URLs (the first and every redirect's) may not name,
/// checked before each hop starts, and addresses it may not connect to, checked on each socket
/// libcurl opens.
struct ConnectRule: Sendable {
    var refusesHost: @Sendable (String) -> Bool
    var refuses: @Sendable (IPAddress) -> Bool
}

extension ConnectRule {
    /// Refuses this machine and its local network: a URL that names it, first or redirected to
    /// (through a proxy, no address check would see where it leads), and a connection to an
    /// address in it, except to the proxies the environment names (a connection to one is to the
    /// proxy the user chose, not to the host a URL names).
    static func localNetwork() -> ConnectRule {
        let proxies = proxyAddresses()
        return ConnectRule(refusesHost: LocalNetwork.named(host:), refuses: { LocalNetwork.contains($0) && !proxies.contains($0) })
    }

    /// The addresses of the proxies libcurl reads from the environment (`http_proxy`,
    /// `https_proxy`/`HTTPS_PROXY`, `all_proxy`/`ALL_PROXY`; "[scheme://][user@]host[:port]",
    /// port 1080 when none is given, as libcurl has it). Resolved only when one is set.
    static func proxyAddresses() -> Set<IPAddress> {
        var found: Set<IPAddress> = []
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { continue }
            var rest = Substring(value)
            var port = "1080"
            if let scheme = value.rangeOfText("://") {
                if value[..<scheme.lowerBound].lowercased() == "https" { port = "443" }
                rest = value[scheme.upperBound...]
            }
            rest = rest.prefix { $0 != "/" }
            if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
            var host = rest
            if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                host = rest[rest.index(after: rest.startIndex)..<close]
                let after = rest[rest.index(after: close)...]
                if after.hasPrefix(":") { port = String(after.dropFirst()) }
            } else if let colon = rest.lastIndex(of: ":") {
                host = rest[..<colon]
                port = String(rest[rest.index(after: colon)...])
            }
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(String(host), port, &hints, &list) == 0 else { continue }
            var entry = list
            while let e = entry {
                if let address = e.pointee.ai_addr, let ip = IPAddress(UnsafeRawPointer(address), length: Int(e.pointee.ai_addrlen)) {
                    found.insert(ip)
                }
                entry = e.pointee.ai_next
            }
            freeaddrinfo(list)
        }
        return found
    }
}
