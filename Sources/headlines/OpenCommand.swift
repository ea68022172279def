import BarFormats
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HeadlinesCommandLine
import HeadlinesCore
import HeadlinesDesktop

/// `headlines open [N]`: the N-th headline of `list` (the cache) in the default browser, or with
/// no N the one a bar shows right now, which the host opens (the bus's OpenHeadline, starting the
/// host when none runs); `--comments` opens its discussion page. `open --id KEY` opens the
/// headline a bar's click names (every format's click carries the key of the headline it
/// shows); `open --from-lemonbar` reads lemonbar's click lines. A sync service's `open N` goes to
/// the host too, which marks the headline read on the service.
enum OpenCommand {
    static func run(_ context: AppContext, positional: [String], comments: Bool = false, id: String? = nil,
                    fromLemonbar: Bool = false) -> Int32 {
        if fromLemonbar { return readLemonbar(context) }
        guard let arg = positional.first, id == nil else { return askHost(context, key: id ?? "", comments: comments) }
        let headlines = context.cache.load(now: Date(), warn: { Output.error("headlines: warning: \($0)") })?.headlines ?? []
        guard let n = Int(arg), n >= 1, n <= headlines.count else {
            Output.error("headlines: open takes the number of a headline from `headlines list` (it shows \(headlines.count)), or nothing for the one on the bar.")
            return 2
        }
        let headline = headlines[n - 1]
        // A sync service's headline is opened by the host, which marks it read there: every
        // read mark is queued and sent in one place.
        if context.config.provider.isSyncService {
            return askHost(context, key: HeadlineKey.of(id: headline.id), comments: comments)
        }
        guard let url = comments ? headline.commentsURL : headline.url else {
            Output.error("headlines: this headline has no discussion page; Hacker News, Reddit and Lobsters headlines have one.")
            return 1
        }
        do {
            // Started for this one open: a token it was given is for the browser it starts.
            try URLLauncher.open(url, activation: .inherited)
            return 0
        } catch {
            Output.clickFailed(error.description)
            return 1
        }
    }

    /// The host opens the headline `key` names ("": the one on display), as the bar shows it.
    static func askHost(_ context: AppContext, key: String, comments: Bool) -> Int32 {
        let widget = context.arguments.widget ?? ""
        return HostCall.ask("OpenHeadline", [.string(widget), .string(key), .bool(comments)], to: "open the headline") == nil ? 1 : 0
    }

    /// lemonbar prints a clicked area's command on its stdout; piped here, each line must be
    /// exactly `open KEY` (what `headlines-bar lemonbar` writes): anything else is ignored with
    /// one sentence, so text that reached lemonbar can never run a command. A person clicks a few
    /// times a second at most: past `ClickPace`, clicks are dropped (one sentence per flood), so a
    /// stuck button or a flood of lines never starts a browser per line.
    static func readLemonbar(_ context: AppContext) -> Int32 {
        var pace = ClickPace()
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return 0 }
            for byte in buffer[0..<n] {
                guard byte == 0x0A else {
                    if pending.count <= 64 { pending.append(byte) }
                    continue
                }
                let line = String(decoding: pending, as: UTF8.self)
                pending.removeAll(keepingCapacity: true)
                if line.hasPrefix("open "), HeadlineKey.isKey(String(line.dropFirst(5))) {
                    guard pace.allows(at: ContinuousClock.now) else { continue }
                    _ = askHost(context, key: String(line.dropFirst(5)), comments: false)
                } else if !line.isEmpty {
                    Output.error("headlines: ignored a line from lemonbar that is not `open KEY`; pipe only `headlines-bar lemonbar`'s bar here.")
                }
            }
        }
    }
}

/// A person's clicks, not a flood's: a burst of `burst` clicks, then `perSecond` more each
/// second (a token bucket). The rest are dropped, and the first one dropped says so.
struct ClickPace {
    let burst = 6.0
    let perSecond = 4.0
    private var tokens = 6.0
    private var last: ContinuousClock.Instant?
    private var saidSo = false

    mutating func allows(at now: ContinuousClock.Instant) -> Bool {
        if let last {
            let elapsed = now - last
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(burst, tokens + seconds * perSecond)
        }
        last = now
        guard tokens >= 1 else {
            if !saidSo {
                Output.error("headlines: dropping clicks from lemonbar: more than a person clicks (a stuck button, or lines that are not clicks).")
            }
            saidSo = true
            return false
        }
        tokens -= 1
        saidSo = false
        return true
    }
}
