// `headlines-bench`: measures what one refresh costs on the wire and in time, against a local
// stand-in server (scripts/bench_server.py). Run it through `make bench`; see scripts/benchmark.sh.
import Foundation

let status = await BenchRunner.run(arguments: Array(CommandLine.arguments.dropFirst()))
exit(status)
