import Foundation
import HeadlinesCore
import HeadlinesSources
import HeadlinesHTTP

/// Runs every measurement in turn and prints one `name value unit` line per figure on stdout;
/// problems go to stderr and make the exit status 1. Nothing is estimated: a figure that could
/// not be measured is not printed.
enum BenchRunner {
    /// One way of fetching: which API, whether `fl=` limits the fields, whether gzip is asked for.
    struct Variant {
        var api: String
        var limitFields: Bool
        var gzip: Bool
        var name: String { "\(api)\(api == "apitube" ? (limitFields ? ".fl" : ".all") : "").\(gzip ? "gzip" : "plain")" }
    }

    static func run(arguments: [String]) async -> Int32 {
        let options: BenchOptions
        do { options = try BenchOptions.parse(arguments) } catch {
            report(error.message)
            return 2
        }
        var ok = true
        let wireLog = options.wireLog.map(WireLog.init(path:))
        let variants = [true, false].flatMap { fl in [true, false].map { Variant(api: "apitube", limitFields: fl, gzip: $0) } }
            + [Variant(api: "newsapi", limitFields: false, gzip: true), Variant(api: "newsapi", limitFields: false, gzip: false)]

        var wire: [String: Int] = [:]
        var ids: [String: [String]] = [:]
        for variant in variants {
            let transport = TaggingTransport(base: CurlTransport(limits: TransportLimits(acceptGzip: variant.gzip)),
                                             variant: variant.name)
            do {
                let headlines = try await provider(variant, baseURL: options.baseURL, transport: transport)
                    .fetchHeadlines(now: Date())
                ids[variant.name] = headlines.map(\.id)
                emit("\(variant.name).headlines", headlines.count, "count")
                emit("\(variant.name).decoded_body", transport.lastBody.value, "bytes")
            } catch {
                report("\(variant.name): the fetch failed: \(error.message(provider: variant.api, keyVariable: nil))")
                ok = false
                continue
            }
            guard let wireLog else { continue }
            guard let record = wireLog.records(variant: variant.name).last else {
                report("\(variant.name): no line in the wire log \(wireLog.path)")
                ok = false
                continue
            }
            if record.gzip != variant.gzip {
                report("\(variant.name): the server \(record.gzip ? "did" : "did not") gzip the body; the figures would be mislabelled")
                ok = false
                continue
            }
            wire[variant.name] = record.wire_bytes
            emit("\(variant.name).wire", record.wire_bytes, "bytes")
            emit("\(variant.name).wire_headers", record.header_bytes, "bytes")
            emit("\(variant.name).wire_body", record.body_bytes, "bytes")
        }

        if let fl = ids["apitube.fl.plain"], let all = ids["apitube.all.plain"] {
            emit("apitube.same_headlines", fl == all ? 1 : 0, "bool")
            if fl != all { report("fl= and all-fields responses decode to different headlines; the byte ratio compares unlike data") }
        }
        ratio("ratio.all_over_fl.plain", wire["apitube.all.plain"], wire["apitube.fl.plain"])
        ratio("ratio.all_over_fl.gzip", wire["apitube.all.gzip"], wire["apitube.fl.gzip"])
        ratio("ratio.all_plain_over_fl_gzip", wire["apitube.all.plain"], wire["apitube.fl.gzip"])

        // The refresh as shipped (fl=, gzip), then the one fl= and gzip replace, for comparison.
        for variant in [Variant(api: "apitube", limitFields: true, gzip: true),
                        Variant(api: "apitube", limitFields: false, gzip: false)] {
            guard let samples = await timeRefreshes(variant, options: options) else { ok = false; continue }
            emit("refresh.\(variant.name).runs", samples.count, "count")
            emit("refresh.\(variant.name).p50", percentile(50, of: samples), "ms")
            emit("refresh.\(variant.name).p95", percentile(95, of: samples), "ms")
            emit("refresh.\(variant.name).max", samples.max()!, "ms")
        }
        return ok ? 0 : 1
    }

    static func provider(_ variant: Variant, baseURL: URL, transport: HTTPTransport) -> HeadlineProvider {
        if variant.api == "newsapi" {
            return NewsAPIProvider(options: .init(baseURL: baseURL), apiKey: "bench-key", transport: transport)
        }
        return APITubeProvider(options: .init(baseURL: baseURL, limitFields: variant.limitFields),
                               apiKey: "bench-key", transport: transport)
    }

    /// `runs` full refreshes (fetch, decode, atomic cache and status writes in a temporary
    /// folder) after one untimed warm-up; milliseconds each, or nil after printing why.
    static func timeRefreshes(_ variant: Variant, options: BenchOptions) async -> [Double]? {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("headlines-bench-\(getpid())-\(variant.name)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let transport = TaggingTransport(base: CurlTransport(limits: TransportLimits(acceptGzip: variant.gzip)),
                                         variant: "refresh.\(variant.name)")
        let refresher = Refresher(provider: provider(variant, baseURL: options.baseURL, transport: transport),
                                  cache: HeadlineCache(path: dir + "/headlines.json"),
                                  statusStore: RefreshStatusStore(path: dir + "/status.json"))
        var samples: [Double] = []
        for run in 0...options.runs {
            var warnings: [String] = []
            let start = ContinuousClock.now
            let result = await refresher.refresh(now: Date(), warn: { warnings.append($0) })
            let elapsed = start.duration(to: .now)
            if case let .failure(failure) = result {
                report("refresh.\(variant.name): run \(run) failed: \(failure.message)")
                return nil
            }
            if let warning = warnings.first {
                report("refresh.\(variant.name): run \(run) warned: \(warning)")
                return nil
            }
            if run > 0 { samples.append(milliseconds(elapsed)) }
        }
        return samples
    }

    static func milliseconds(_ d: Swift.Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    static func ratio(_ name: String, _ numerator: Int?, _ denominator: Int?) {
        guard let numerator, let denominator, denominator > 0 else { return }
        emit(name, Double(numerator) / Double(denominator), "x")
    }

    static func emit(_ name: String, _ value: Int, _ unit: String) { line("\(name) \(value) \(unit)") }
    static func emit(_ name: String, _ value: Double, _ unit: String) {
        line("\(name) \(String(format: "%.2f", value)) \(unit)")
    }

    static func line(_ text: String) { try? FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8)) }
    static func report(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(("headlines-bench: " + text + "\n").utf8))
    }
}
