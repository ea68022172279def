import Foundation

/// The command line of `headlines-bench`.
struct BenchOptions {
    var baseURL: URL
    /// The server's wire log (one JSON line per response); without it only body sizes are known.
    var wireLog: String?
    var runs = 50

    static let usage = """
    Usage: headlines-bench --base-url URL [--wire-log FILE] [--runs N]

    Fetches APITube top headlines with fl= on and off and gzip on and off, and NewsAPI top
    headlines, from URL (a loopback http server such as scripts/bench_server.py), then times N
    full refreshes (fetch, decode, cache write). Prints one `name value unit` line per figure.
    """

    struct UsageError: Error { var message: String }

    static func parse(_ argv: [String]) throws(UsageError) -> BenchOptions {
        var base: URL?
        var options = BenchOptions(baseURL: URL(string: "http://127.0.0.1")!)
        var i = 0
        func value() throws(UsageError) -> String {
            i += 1
            guard i < argv.count else { throw UsageError(message: "\(argv[i - 1]) needs a value") }
            return argv[i]
        }
        while i < argv.count {
            switch argv[i] {
            case "--base-url":
                let text = try value()
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                    throw UsageError(message: "--base-url '\(text)' is not an http(s) URL")
                }
                base = url
            case "--wire-log": options.wireLog = try value()
            case "--runs":
                let text = try value()
                guard let n = Int(text), n > 0 else { throw UsageError(message: "--runs '\(text)' is not a positive number") }
                options.runs = n
            case "-h", "--help": throw UsageError(message: usage)
            default: throw UsageError(message: "unknown argument \(argv[i])\n\n\(usage)")
            }
            i += 1
        }
        guard let base else { throw UsageError(message: "--base-url is required\n\n\(usage)") }
        options.baseURL = base
        return options
    }
}
