import Foundation
import XCTest
@testable import HeadlinesCore

/// The command table against what is rendered or parsed from it, and the manual against the table.
final class CommandTableTests: XCTestCase {
    private var publicCommands: [CommandTable.Command] { CommandTable.commands.filter(\.isPublic) }
    private var internalOptions: [CommandTable.Option] { CommandTable.options.filter { !$0.isPublic } }

    func testEveryPublicCommandButHelpHasItsHelpUnderEachOfItsNames() {
        for command in publicCommands where command.name != "help" {
            let text = CommandTable.help(for: command.name)
            XCTAssertTrue(text?.hasPrefix("Usage: headlines \(command.name)") == true, "help \(command.name): \(text ?? "none")")
            for alias in command.aliases { XCTAssertEqual(CommandTable.help(for: alias), text, "help \(alias)") }
        }
        for command in CommandTable.commands where !command.isPublic {
            XCTAssertNil(CommandTable.help(for: command.name), "the internal \(command.name) has help")
        }
    }

    func testTheGeneralHelpListsThePublicCommandsAndNoInternalOption() {
        let lines = CommandTable.generalHelp.split(separator: "\n").map(String.init)
        for command in publicCommands {
            XCTAssertTrue(lines.contains { $0.hasPrefix("  \(command.synopsis)  ") && $0.hasSuffix(command.summary) },
                          "headlines --help lacks \(command.name)")
        }
        for command in CommandTable.commands where !command.isPublic {
            XCTAssertFalse(CommandTable.generalHelp.contains(command.name), "headlines --help names \(command.name)")
        }
        for option in internalOptions {
            XCTAssertFalse(CommandTable.generalHelp.contains(option.long), "headlines --help names \(option.long)")
            for command in publicCommands {
                XCTAssertFalse(command.help?.contains(option.long) == true, "help \(command.name) names \(option.long)")
            }
        }
    }

    func testEveryOptionParsesUnderEachOfItsNamesAndChangesTheArguments() throws {
        for option in CommandTable.options {
            for name in option.names {
                let argv = ["list", name] + (option.value == nil ? [] : ["1"])
                XCTAssertNotEqual(try Arguments.parse(argv), try Arguments.parse(["list"]), "\(argv) changed nothing")
            }
        }
    }

    func testOptionsAreForCommandsOfTheTableAndNoNameIsTakenTwice() {
        let commandNames = CommandTable.commands.flatMap(\.names)
        let optionNames = CommandTable.options.flatMap(\.names)
        XCTAssertEqual(Set(commandNames).count, commandNames.count, "a command name twice: \(commandNames)")
        XCTAssertEqual(Set(optionNames).count, optionNames.count, "an option name twice: \(optionNames)")
        for option in CommandTable.options {
            for command in option.commands { XCTAssertTrue(commandNames.contains(command), "\(option.long) is for \(command)") }
        }
    }

    /// headlines.1's COMMANDS section: each `.TP` tag (the line after it) names commands in bold,
    /// `.B run`, `.BR next ", " prev`, `.BI open " N"` or `\fBopen \-\-comments\fR`.
    func testTheManualHasAnEntryForEveryPublicCommand() throws {
        let page = try String(contentsOf: Completion.root.appendingPathComponent("packaging/man/headlines.1"), encoding: .utf8)
        let lines = page.components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex(of: ".SH COMMANDS"))
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SH ") } ?? lines.count
        var tagged = Set<String>()
        for i in start..<(end - 1) where lines[i] == ".TP" {
            let tag = lines[i + 1].replacingOccurrences(of: "\\-", with: "-")
                .replacingOccurrences(of: #"\\f[BRIP]"#, with: " ", options: .regularExpression)
                .replacingOccurrences(of: #"^\.(B|BR|BI)\b"#, with: "", options: .regularExpression)
            tagged.formUnion(tag.split { " \",[]|".contains($0) }.map(String.init))
        }
        for command in publicCommands {
            for name in command.names { XCTAssertTrue(tagged.contains(name), "headlines.1's COMMANDS has no entry for \(name)") }
        }
        for option in CommandTable.options where option.isPublic {
            XCTAssertTrue(page.contains(option.long.replacingOccurrences(of: "-", with: "\\-")), "headlines.1 never names \(option.long)")
        }
        for option in internalOptions {
            XCTAssertFalse(page.contains(option.long.replacingOccurrences(of: "-", with: "\\-")), "headlines.1 names \(option.long)")
        }
    }
}
