import CSandbox
import FoundationEssentials
import HeadlinesCore
import HeadlinesGLib
#if canImport(Glibc)
import Glibc
#endif

/// The reload child's sandbox, put on by the child itself whoever started it (the host, systemd,
/// `headlines-reload` run by hand), once its config, key file and subscription file are read
/// and before the first byte from a server: every server's bytes are parsed after this point.
/// Then no new privileges; Landlock, where the kernel offers it, keeps the file system to what a
/// reload touches; a seccomp filter denies what a parser taken over would reach for. A kernel
/// without Landlock keeps the other two (said with --verbose); a sandbox the kernel refuses is a
/// warning, and the reload goes on.
enum ChildSandbox {
    /// What a reload reads after the sandbox: the CA store (and OpenSSL's config in it; the
    /// hashed links in /etc/ssl/certs point into both ca-certificates folders), the resolver's
    /// files, shared libraries and the modules glibc, OpenSSL and gdk-pixbuf load on first use
    /// (NSS, gconv, providers, image loaders), the loader's cache, its own /proc entry and random
    /// bytes. Not the config folder or the key file: both were read before, and nothing after
    /// reads them again.
    static let systemReadable = [
        "/etc/ssl", "/usr/share/ca-certificates", "/usr/local/share/ca-certificates", "/usr/lib/ssl",
        "/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/gai.conf", "/etc/host.conf",
        "/usr/lib", "/lib", "/etc/ld.so.cache", "/proc/self", "/dev/urandom",
    ]

    /// Puts the sandbox on; `verbose` also says what it holds.
    static func apply(paths: XDGPaths, environment: [String: String], verbose: Bool) {
        if let problem = noNewPrivileges() { return HostLog.warning(problem) }
        let fileSystem = landlock(writable: writable(paths), readable: systemReadable + caStore(environment))
        if let problem = fileSystem.problem { HostLog.warning(problem) }
        let seccomp = csb_seccomp_restrict()
        if seccomp != 0 { HostLog.warning("the reload child could not load its seccomp filter (\(describe(seccomp))); it reloads without it.") }
        if verbose {
            HostLog.info("reload child sandboxed: no_new_privs, \(fileSystem.summary), \(seccomp == 0 ? "seccomp filter" : "no seccomp filter")")
        }
    }

    /// The cache folder and the folder of the status file, made first (Landlock names existing
    /// folders only), and /dev/null.
    static func writable(_ paths: XDGPaths) -> [String] {
        let folders = [paths.cacheDir, PathText.directory(of: paths.statusFile)]
        for folder in folders { try? PosixFileSystem().createDirectories(folder) }
        return folders + ["/dev/null"]
    }

    /// The CA store the environment points OpenSSL or libcurl at, when it does.
    static func caStore(_ environment: [String: String]) -> [String] {
        let files = ["SSL_CERT_FILE", "CURL_CA_BUNDLE"].compactMap { environment[$0] }
        let folders = environment["SSL_CERT_DIR"].map { $0.split(separator: ":").map(String.init) } ?? []
        return (files + folders).filter { $0.hasPrefix("/") }
    }

    private static func noNewPrivileges() -> String? {
        let e = csb_no_new_privs()
        return e == 0 ? nil : "the reload child could not set no_new_privs (\(describe(e))), so it cannot sandbox itself; it reloads without a sandbox."
    }

    private static func landlock(writable: [String], readable: [String]) -> (summary: String, problem: String?) {
        let abi = csb_landlock_abi()
        guard abi >= 1 else {
            let why = -abi == ENOSYS ? "this kernel is built without it" : -abi == EOPNOTSUPP ? "it is turned off at boot" : describe(-abi)
            return ("no Landlock (\(why)): the file system is not restricted", nil)
        }
        let (status, failed) = withCStrings(readable) { r in
            withCStrings(writable) { w in
                var failed: UnsafePointer<CChar>?
                let status = csb_landlock_restrict(abi, r, Int32(readable.count), w, Int32(writable.count), &failed)
                return (status, failed.map { String(cString: $0) })
            }
        }
        guard status == 0 else {
            let at = failed.map { " at \($0)" } ?? ""
            return ("no Landlock", "the reload child could not restrict its file system with Landlock (\(describe(status))\(at)); it reloads without that restriction.")
        }
        return ("Landlock ABI \(abi) (writes only \(writable.dropLast().joined(separator: " and ")))", nil)
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer<CChar>($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
