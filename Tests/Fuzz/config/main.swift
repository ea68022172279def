import Foundation
@testable import HeadlinesCore
@testable import HeadlinesSources

// libFuzzer target: `Config.parse(groups:file:)` with groups taken from the input, read as a key
// file in the simplest way (a line `[name]` opens a group, `key = value` adds to it, the last
// value of a key wins). GKeyFile's own reading is fuzzed by the keyfile target; this one reaches
// the validation of values (durations, numbers, URLs, feed lists) directly. A ConfigError is a
// clean outcome.
func fuzzGroups(_ text: String) -> [String: [String: String]] {
    var groups: [String: [String: String]] = [:]
    var current: String?
    for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#") { continue }
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]"), trimmed.count >= 2 {
            let name = String(trimmed.dropFirst().dropLast())
            current = name
            groups[name, default: [:]] = groups[name] ?? [:]
        } else if let eq = trimmed.firstIndex(of: "="), let group = current {
            let key = trimmed[..<eq].trimmingCharacters(in: .whitespaces)
            let value = String(trimmed[trimmed.index(after: eq)...])
            groups[group, default: [:]][key] = value
        }
    }
    return groups
}

@_cdecl("LLVMFuzzerTestOneInput")
public func headlinesFuzzConfig(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: fuzzData(bytes, count), as: UTF8.self)
    let groups = fuzzGroups(text)
    do {
        let config = try Config.parse(groups: groups, file: "/fuzz/headlines.conf")
        _ = config.resolvedProvider(environment: [:])
        _ = config.resolvedProvider(environment: ["APITUBE_API_KEY": "x"])
        // The host logs the interval with Duration.format; the parser bounds it to 1 s ... 24 h.
        _ = Duration.format(config.interval)
        _ = Duration.format(config.timeout)
    } catch {
        _ = error.message.utf8.count
    }
    return 0
}
