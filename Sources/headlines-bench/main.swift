// `headlines-bench [--passes N] FILE...`: the reload child's parse over feed files, timed by this
// process's own CPU, for make bench's parse throughput (Benchmarks/parse.py). The parse is
// `FeedParser.parse`, what headlines-reload runs on each feed body it fetched (libxml2's reader,
// the element tree, the RSS/Atom reading), built the same way (release); the files are read into
// memory first, so only the parse is timed. Prints `parse.NAME value unit` lines.
import FoundationEssentials
import HeadlinesSources
#if canImport(Glibc)
import Glibc
#endif

func fail(_ text: String, status: Int32) -> Never {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var passes = 1
if arguments.first == "--passes", arguments.count > 1, let n = Int(arguments[1]), n > 0 {
    passes = n
    arguments.removeFirst(2)
}
guard !arguments.isEmpty else {
    fail("usage: headlines-bench [--passes N] FILE...", status: 2)
}
var bodies: [(URL, Data)] = []
for path in arguments {
    guard let data = FileManager.default.contents(atPath: path) else {
        fail("headlines-bench: cannot read \(path)", status: 1)
    }
    bodies.append((URL(string: "http://127.0.0.1/feeds/\(bodies.count)")!, data))
}

func cpuMicroseconds() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
}

var items = 0
var refused = 0
let start = cpuMicroseconds()
for _ in 0..<passes {
    for (url, data) in bodies {
        do { items += try FeedParser.parse(data, baseURL: url).items.count } catch { refused += 1 }
    }
}
let spent = cpuMicroseconds() - start
print("parse.files \(bodies.count) count")
print("parse.passes \(passes) count")
print("parse.bytes \(bodies.reduce(0) { $0 + $1.1.count }) B")
print("parse.items \(items / passes) count")
print("parse.refused \(refused / passes) count")
print("parse.cpu_us \(spent) us")
