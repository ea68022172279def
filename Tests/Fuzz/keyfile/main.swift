import Foundation
@testable import HeadlinesCore
@testable import HeadlinesSources

// libFuzzer target: the config file as the app reads it: the input is written to a file, read
// with GLib's GKeyFile through `KeyFileReader.read(path:)` (HeadlinesGLib; scripts/fuzz.sh compiles that
// one file into this target), and the groups validated by `Config.parse`. A ConfigError is a
// clean outcome.
private let fuzzPath: String = {
    let dir = ProcessInfo.processInfo.environment["FUZZ_TMPDIR"] ?? NSTemporaryDirectory()
    return (dir as NSString).appendingPathComponent("headlines-fuzz-\(getpid()).conf")
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func headlinesFuzzKeyFile(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = fuzzData(bytes, count)
    guard FileManager.default.createFile(atPath: fuzzPath, contents: data) else {
        fatalError("cannot write the fuzz input to \(fuzzPath)")
    }
    do {
        if let groups = try KeyFileReader.read(path: fuzzPath) {
            let config = try Config.parse(groups: groups, file: fuzzPath)
            _ = config.resolvedProvider(environment: [:])
            _ = Duration.format(config.interval)
            _ = Duration.format(config.timeout)
        }
    } catch {
        _ = error.message.utf8.count
    }
    return 0
}
