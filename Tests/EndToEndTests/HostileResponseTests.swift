import Foundation
import HeadlinesCore
import HeadlinesSources
import HeadlinesHTTP
import TestSupport
import XCTest

/// `CurlTransport` against servers that send what no well-behaved server sends: broken framing,
/// broken compression, absurd headers, no status line. Each answer is either decoded or turned
/// into one fixed sentence with nothing of the server's bytes in it.
final class HostileResponseTests: LoopbackServerTestCase {
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
            XCTAssertTrue(sentence.hasSuffix(".") && !sentence.dropLast().contains(". "), "not one sentence: \(sentence)", file: file, line: line)
            for text in forbidden { XCTAssertFalse(sentence.contains(text), "server text \(text) in: \(sentence)", file: file, line: line) }
            return error
        }
    }

    func malformed(_ detail: String) -> NewsError { .malformedResponse(detail: detail) }

    // MARK: - Headers

    func testEndlessSmallHeaderLinesStopAtTheHeaderCap() async throws {
        // 300 KiB of "X-A: b": under the 4 MiB body cap, so only a cap of its own stops it.
        let lines = String(repeating: "X-A: b\r\n", count: 300 * 1024 / 8)
        let result = await fetch(head(lines, body: Data("{}".utf8)))
        XCTAssertEqual(failure(result), malformed("more than 256 KiB of headers"))
    }

    func testOneEnormousHeaderIsOneSentence() async throws {
        let result = await fetch(head("X-Big: \(String(repeating: "a", count: 1_000_000))\r\n", body: Data("{}".utf8)))
        XCTAssertEqual(failure(result, notContaining: ["aaaa"]), malformed("a header line longer than 100 KiB"))
    }

    func testControlCharactersNeverSurviveInHeaderNamesOrValues() async throws {
        var wire = Data("HTTP/1.1 200 OK\r\nX-\u{1B}[2JName: a\u{1B}]0;title\u{07}b\u{9B}31mc\u{7F}d".utf8)
        wire += Data([0xFF, 0xFE]) + Data("e\r\nContent-Length: 2\r\n\r\n{}".utf8)
        let response = try await fetch(wire).get()
        XCTAssertEqual(response.header("x-[2jname"), "a]0;titleb31mcd\u{FFFD}\u{FFFD}e")
        for (name, value) in response.headers {
            XCTAssertFalse((name + value).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                           "control character in \(name.debugDescription): \(value.debugDescription)")
        }
    }

    func testAHeaderLineStartingWithHTTPDoesNotDropTheHeadersBeforeIt() async throws {
        let response = try await fetch("HTTP/1.1 200 OK\r\nX-Keep: 1\r\nHTTP/2: x\r\nContent-Length: 2\r\n\r\n{}").get()
        XCTAssertEqual(response.header("x-keep"), "1")
    }

    func testInterimResponsesAreSkippedAndOnlyTheFinalHeadersKept() async throws {
        let wire = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nX-Final: y\r\nContent-Length: 2\r\n\r\n{}"
        let response = try await fetch(wire).get()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, Data("{}".utf8))
        XCTAssertEqual(response.header("x-final"), "y")
        XCTAssertNil(response.header("link"))
    }

    func testNoStatusLineIsMalformed() async throws {
        // HTTP/0.9: the body straight away. Before, this read "not an http or https URL".
        let result = await fetch("{\"ok\":1}\n")
        XCTAssertEqual(failure(result), malformed("no HTTP status line"))
    }

    // MARK: - Framing

    func testInvalidChunkedEncodingIsMalformedNotAReset() async throws {
        let result = await fetch("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n")
        XCTAssertEqual(failure(result), malformed("broken chunked encoding"))
    }

    func testTwoDifferentContentLengthsAreRefused() async throws {
        let result = await fetch("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 7\r\n\r\n{}EXTRA")
        XCTAssertEqual(failure(result), malformed("two different Content-Length headers"))
        // The same length twice is only redundant.
        let same = try await fetch("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}").get()
        XCTAssertEqual(same.body, Data("{}".utf8))
    }

    func testBodyLongerThanContentLengthStopsAtTheLength() async throws {
        let response = try await fetch("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}EXTRA").get()
        XCTAssertEqual(response.body, Data("{}".utf8))
    }

    func testCloseRightAfterTheHeadersIsCutShort() async throws {
        let framed = await fetch("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
        XCTAssertEqual(failure(framed), malformed("the response was cut short at 0 of 100 bytes"))
        let chunked = await fetch("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        XCTAssertEqual(failure(chunked), malformed("the response was cut short"))
    }

    func test304ToARequestWithoutValidatorsIsAnError() async throws {
        let result = await fetch("HTTP/1.1 304 Not Modified\r\nContent-Length: 0\r\n\r\n")
        XCTAssertEqual(failure(result), malformed("304 Not Modified to a request that had no cache validators"))
    }

    // MARK: - Content-Encoding

    func testDeflateBrotliAndZstdAreDecoded() async throws {
        // Debian's libcurl 7.88 is built with zlib, brotli and zstd (`curl -V`).
        let bodies = [("deflate", "eJyrVsrPVrJSSklNy0ksSU1RqgUAMkMFzg==", "deflated"),
                      ("br", "CweAeyJvayI6ImJyb3RsaSJ9Aw==", "brotli"),
                      ("zstd", "KLUv/QRYaQAAeyJvayI6InpzdGQifc/Q16M=", "zstd")]
        for (coding, base64, word) in bodies {
            let response = try await fetch(head("Content-Encoding: \(coding)\r\n", body: Data(base64Encoded: base64)!)).get()
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "{\"ok\":\"\(word)\"}", coding)
        }
    }

    func testGzipCorruptHalfwayIsUndecodable() async throws {
        var gz = Gzip.compressForTests(Data(("{\"ok\":\"" + String(repeating: "x", count: 20000) + "\"}").utf8))
        for i in (gz.count / 2)..<(gz.count / 2 + 8) { gz[gz.startIndex + i] ^= 0xFF }
        let result = await fetch(head("Content-Encoding: gzip\r\n", body: gz))
        XCTAssertEqual(failure(result), malformed("a compressed body that does not decode"))
    }

    func testAnUnsupportedEncodingIsNamedInOneCleanSentence() async throws {
        let xz = await fetch(head("Content-Encoding: xz\r\n", body: Data("abc".utf8)))
        XCTAssertEqual(failure(xz), malformed("compressed as 'xz', which this libcurl cannot decode"))
        let hostile = head("Content-Encoding: \u{1B}[31m.Owned. Run this\r\n", body: Data("abc".utf8))
        let answer = await fetch(hostile)
        XCTAssertEqual(failure(answer, notContaining: ["Owned", "Run", "[31m"]), malformed("compressed as '31mownedrunthis', which this libcurl cannot decode"))
    }
}
