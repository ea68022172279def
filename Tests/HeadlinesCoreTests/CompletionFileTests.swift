import BarFormats
import Foundation
import XCTest
@testable import HeadlinesCore

/// packaging/completions/ against the command table and BarFormat: each shell offers exactly the
/// public commands, each public option where it applies, no internal option, and headlines-bar's
/// formats and options.
final class CompletionFileTests: XCTestCase {
    func testBash() throws { try check(Completion.bash(), "headlines.bash") }
    func testZsh() throws { try check(Completion.zsh(), "_headlines") }
    func testFish() throws { try check(Completion.fish(), "headlines.fish") }

    private func check(_ offered: Completion, _ file: String) {
        let commands = CommandTable.commands.filter(\.isPublic)
        XCTAssertEqual(offered.commands, Set(commands.flatMap(\.names)), "\(file): the commands offered")
        for command in CommandTable.commands where !command.isPublic {
            XCTAssertFalse(offered.text.contains(command.name), "\(file) names the internal \(command.name)")
        }
        let global = offered.options[""] ?? []
        for option in CommandTable.options {
            if !option.isPublic {
                XCTAssertFalse(offered.everyOption.contains(option.long), "\(file) offers the internal \(option.long)")
            } else if option.commands.isEmpty {
                XCTAssertTrue(global.contains(option.long), "\(file) does not offer \(option.long) everywhere")
            }
            for command in option.commands where option.isPublic {
                XCTAssertTrue(global.union(offered.options[command] ?? []).contains(option.long),
                              "\(file) does not offer \(option.long) after \(command)")
            }
        }
        XCTAssertEqual(offered.barFormats, Set(BarFormat.allCases.map(\.rawValue) + BarUsage.commands), "\(file): headlines-bar's formats")
        XCTAssertTrue(offered.barOptions.isSuperset(of: BarUsage.options), "\(file): headlines-bar's options \(offered.barOptions)")
    }
}

/// What one completion file offers, as far as these tests read it.
struct Completion {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    var text: String
    var commands: Set<String> = []
    /// The long options offered after each command; "" for the ones offered anywhere.
    var options: [String: Set<String>] = [:]
    var barFormats: Set<String> = []
    var barOptions: Set<String> = []
    /// Every long option the file names, whoever it offers it to.
    var everyOption: Set<String> { Self.longOptions(text) }

    init(_ file: String) throws {
        text = try String(contentsOf: Self.root.appendingPathComponent("packaging/completions/\(file)"), encoding: .utf8)
    }

    /// `local commands="..."`, `options+=" ..."` in a `case $command` branch, `_headlines_bar`'s
    /// `bar_formats` and every option it names.
    static func bash() throws -> Completion {
        var c = try Completion("headlines.bash")
        let (cli, bar) = try c.split(at: "_headlines_bar() {")
        c.commands = words(after: "local commands=", in: cli)
        c.options[""] = longOptions(words(after: "local global=", in: cli).joined(separator: " "))
        for match in cli.matches(of: #/\n\s*([\w|-]+)\) options\+=" ([^"]*)"/#) {
            for name in match.1.split(separator: "|") { c.options[String(name), default: []].formUnion(longOptions(match.2)) }
        }
        c.barFormats = words(after: "local bar_formats=", in: bar)
        c.barOptions = longOptions(bar)
        return c
    }

    /// The `commands=(...)` descriptions, the `global=(...)` specs, each `case` branch up to its
    /// `;;`, and `_headlines_bar`'s `bar_formats` and specs (with `$global`).
    static func zsh() throws -> Completion {
        var c = try Completion("_headlines")
        let (cli, bar) = try c.split(at: "_headlines_bar() {")
        c.commands = Set(block("commands=(", in: cli).compactMap { $0.firstMatch(of: #/^\s*'([^':]+):/#).map { String($0.1) } })
        c.options[""] = longOptions(block("global=(", in: cli).joined(separator: "\n"))
        var branch: [Substring] = []
        for line in cli.split(separator: "\n") {
            // `argument)` of `case $state` opens a branch too, ended by the first command's.
            if let start = line.firstMatch(of: #/^\s*([\w|-]+)\)/#) { branch = start.1.split(separator: "|") }
            for name in branch { c.options[String(name), default: []].formUnion(longOptions(line)) }
            if line.contains(";;") { branch = [] }
        }
        c.barFormats = words(after: "bar_formats=", in: bar)
        c.barOptions = longOptions(bar).union(bar.contains("$global") ? c.options[""] ?? [] : [])
        return c
    }

    /// `complete` lines: `-c headlines`, `-c headlines-bar`, or `-c $program` in the loop over
    /// both; `-a NAME` under `not __fish_seen_subcommand_from $commands` for a command (which
    /// `set -l commands` must list too), `-l NAME` under `__fish_seen_subcommand_from CMD...`
    /// for that command's options, or with no condition for the global ones.
    static func fish() throws -> Completion {
        var c = try Completion("headlines.fish")
        var offered = Set<String>()
        for line in c.text.split(separator: "\n") where line.hasPrefix("complete ") || line.hasPrefix("    complete ") {
            let program = line.firstMatch(of: #/-c (\S+)/#).map { String($0.1) } ?? ""
            let option = line.firstMatch(of: #/ -l (\S+)/#).map { "--" + $0.1 }
            let seen = line.firstMatch(of: #/-n '__fish_seen_subcommand_from ([^']+)'/#).map { $0.1.split(separator: " ").map(String.init) }
            if program != "headlines-bar", let name = line.firstMatch(of: #/not __fish_seen_subcommand_from \$commands" -a (\S+)/#) {
                offered.insert(String(name.1))
            }
            guard let option else { continue }
            if program != "headlines-bar" {
                for command in seen ?? [""] { c.options[command, default: []].insert(option) }
            }
            if program != "headlines" { c.barOptions.insert(option) }
        }
        c.commands = offered.intersection(words(after: "set -l commands ", in: Substring(c.text)))
        c.barFormats = words(after: "set -l bar_formats ", in: Substring(c.text))
        return c
    }

    /// The file before `marker` (headlines') and from it on (headlines-bar's).
    private func split(at marker: String) throws -> (Substring, Substring) {
        let range = try XCTUnwrap(text.range(of: marker), "no \(marker)")
        return (text[..<range.lowerBound], text[range.lowerBound...])
    }

    /// The words of the line that starts (after indentation) with `prefix`, quotes and parentheses
    /// dropped.
    private static func words(after prefix: String, in text: Substring) -> Set<String> {
        let line = text.split(separator: "\n").first { $0.drop { $0 == " " }.hasPrefix(prefix) } ?? ""
        return Set(line.drop { $0 == " " }.dropFirst(prefix.count).split { " \"()".contains($0) }.map(String.init))
    }

    /// The lines after the one ending in `opening` (`commands=(`), up to the lone `)`.
    private static func block(_ opening: String, in text: Substring) -> [Substring] {
        let lines = text.split(separator: "\n")
        guard let start = lines.firstIndex(where: { $0.hasSuffix(opening) }) else { return [] }
        return Array(lines[(start + 1)...].prefix { $0.trimmingCharacters(in: .whitespaces) != ")" })
    }

    private static func longOptions(_ text: some StringProtocol) -> Set<String> {
        Set(String(text).matches(of: #/--([a-z][a-z-]*)| -l ([a-z][a-z-]*)/#).map { "--" + ($0.output.1 ?? $0.output.2 ?? "") })
    }
}
