import Foundation
import HeadlinesCore
import HeadlinesHTTP
import TestSupport
import XCTest

/// `CurlTransport` against servers that send what no well-behaved server sends: broken framing,
/// broken compression, absurd headers, no status line. Each answer is either decoded or turned
/// into one fixed sentence with nothing of the server's bytes in it.
final class HostileResponseTests: XCTestCase {
    var server: LoopbackHTTPServer!

    override func setUpWithError() throws {
        server = LoopbackHTTPServer()
        try server.start()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    func url(_ path: String) -> URL { server.baseURL.appendingPathComponent(String(path.dropFirst())) }

    /// Serves `wire` verbatim at `/raw` and fetches it.
    func fetch(_ wire: Data, timeout: Double = 5, request: HTTPRequest? = nil) async -> Result<HTTPResponse, NewsError> {
        server.route("/raw", .raw(wire))
        return await CurlTransport(limits: TransportLimits(timeout: timeout)).getAll([request ?? HTTPRequest(url: url("/raw"))])[0]
    }

    func fetch(_ wire: String, timeout: Double = 5, request: HTTPRequest? = nil) async -> Result<HTTPResponse, NewsError> {
        await fetch(Data(wire.utf8), timeout: timeout, request: request)
    }

    func head(_ lines: String, body: Data) -> Data {
        Data("HTTP/1.1 200 OK\r\nConnection: close\r\n\(lines)Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    /// The error, its sentence checked: one sentence, printable, no trace of `forbidden` text.
    func failure(_ result: Result<HTTPResponse, NewsError>, notContaining forbidden: [String] = [],
                 file: StaticString = #filePath, line: UInt = #line) -> NewsError? {
        switch result {
        case let .success(response):
            XCTFail("expected an error, got HTTP \(response.status) with \(response.body.count) bytes", file: file, line: line)
            return nil
        case let .failure(error):
            let sentence = error.message(provider: "Feed")
            XCTAssertFalse(sentence.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                           "control character in: \(sentence.debugDescription)", file: file, line: line)
            XCTAssertEqual(sentence.filter { $0 == "." }.count, 1, "not one sentence: \(sentence)", file: file, line: line)
            for text in forbidden { XCTAssertFalse(sentence.contains(text), "server text \(text) in: \(sentence)", file: file, line: line) }
            return error
        }
    }
}
