import FoundationEssentials
import HeadlinesCore
#if canImport(Glibc)
import Glibc
#endif

/// How the reload child (`headlines-reload`) gives the host
/// its `ReloadReport`: one JSON document on stdout, which then ends.
public enum ReportOutput {
    /// 0, or 1 when the report could not be encoded. A report longer than the host reads
    /// (`ReloadReport.maxBytes`, with its newline) loses its oldest headlines until it fits.
    public static func print(_ report: ReloadReport) -> Int32 {
        guard let data = try? FileSizeLimit.encode(report, limit: ReloadReport.maxBytes - 1, path: "the reload report") else { return 1 }
        DescriptorOutput.writeAll([UInt8](data) + [0x0A], to: 1)
        // The host shows the report as soon as this pipe ends: end it now rather than at the exit,
        // which first unmaps the process. /dev/null takes its place, so fd 1 stays open.
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if null >= 0 { dup2(null, 1); close(null) }
        return 0
    }
}
