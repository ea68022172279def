import Foundation
import TestSupport
import XCTest

/// `headlines-bar json --changed-from HASH`, the form for widget hosts that read a command's
/// output only when it exits (KDE's executable data engine): against a real host, it prints the
/// document's name and the document and exits at once when the host shows something else than
/// HASH names, and waits for the next change when it shows just that.
final class ChangedDocumentTests: HostTestCase {
    private func bar(_ arguments: [String]) throws -> BackgroundProcess {
        try BackgroundProcess(executable: barBinary, arguments: arguments + ["--config", configFile.path],
                              environment: cli.environment(["APITUBE_API_KEY": Self.apiKey]))
    }

    private func changedFrom(_ name: String) throws -> BackgroundProcess { try bar(["json", "--changed-from", name]) }

    /// The two lines a run printed: the document's name and the document's index.
    private func printed(_ bar: BackgroundProcess) throws -> (name: String, index: Int?) {
        let out = bar.lines.filter { $0.stream == .stdout }.map(\.text)
        XCTAssertEqual(out.count, 2, bar.transcript)
        let name = try XCTUnwrap(out.first)
        XCTAssertTrue(name.count == 16 && name.allSatisfy(\.isHexDigit), "not a name: \(name)")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.last!.utf8)) as? [String: Any], bar.transcript)
        return (name, document["index"] as? Int)
    }

    func testItPrintsADocumentTheWidgetLacksAndExitsAndWaitsForTheNextChangeOtherwise() throws {
        // Given a host showing its first headline
        try writeConfig(interval: "1h", dailyBudget: 10)
        _ = try startHost()
        let widget = cli.root.appendingPathComponent("runtime/headlines/bar/widget.json").path
        XCTAssertNotNil(waitUntil(timeout: 20) { ((try? String(contentsOfFile: widget, encoding: .utf8)) ?? "").contains("\"fresh\"") })

        // When a widget with no document yet asks
        let first = try changedFrom("0")

        // Then it gets the document and its name at once, and the command ends
        XCTAssertEqual(first.waitForExit(timeout: 10)?.status, 0, first.transcript)
        let shown = try printed(first)
        XCTAssertEqual(shown.index, 0)

        // When it asks again with that name, nothing is printed while the host shows the same
        let second = try changedFrom(shown.name)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(second.isRunning, second.transcript)
        XCTAssertTrue(second.lines.isEmpty, second.transcript)

        // Then, once the bar turns to the next headline, the new document comes and the command ends
        XCTAssertEqual(try run(["next"]).status, 0)
        XCTAssertEqual(second.waitForExit(timeout: 10)?.status, 0, second.transcript)
        let next = try printed(second)
        XCTAssertEqual(next.index, 1)
        XCTAssertNotEqual(next.name, shown.name)
    }

    func testANameThatIsNotOneOrAnotherFormatIsOneSentence() throws {
        try writeConfig(interval: "1h", dailyBudget: 10)
        for (arguments, sentence) in [
            (["json", "--changed-from", "+1"], "--changed-from '+1' is not a document's name (1 to 16 hex digits, 0 for none)"),
            (["polybar", "--changed-from", "0"], "--changed-from goes with json only"),
        ] {
            let refused = try bar(arguments)
            XCTAssertEqual(refused.waitForExit(timeout: 10)?.status, 2, refused.transcript)
            XCTAssertEqual(refused.lines.map(\.text), ["headlines-bar: \(sentence); headlines-bar --help lists the formats."])
        }
    }
}
