import CGLib

/// Host names in the one form DNS and config files know.
public enum HostName {
    /// The ASCII form (punycode, `xn--...`) of an international host name, given as it is or
    /// percent-encoded, as FoundationEssentials leaves it: it has no IDNA (that is ICU's), and
    /// libcurl refuses a percent-encoded host. Nil when GLib finds it no host name.
    public static func ascii(_ host: String) -> String? {
        guard let decoded = g_uri_unescape_string(host, nil) else { return nil }
        defer { g_free(decoded) }
        guard let ascii = g_hostname_to_ascii(decoded) else { return nil }
        defer { g_free(ascii) }
        return String(cString: ascii)
    }
}
