import Foundation
import HeadlinesCore
@testable import HeadlinesDesktop
@testable import HeadlinesHTTP
@testable import HeadlinesImages
import TestSupport
import XCTest

/// The reload's image step is bounded as a whole: one deadline for downloads and decoding, a
/// decoded-size cap, and no connection from an outside source's images to this machine or its
/// local network.
final class ImageStepTests: EndToEndTestCase {
    private func apitubePage(_ images: [String]) -> Data {
        let articles = images.enumerated().map { i, image in
            #"{"id":\#(i + 1),"title":"Story \#(i + 1)","href":"https://news.example.com/\#(i + 1)","published_at":"2026-11-29T21:50:00Z","source":{"domain":"example.com"},"image":"\#(image)"}"#
        }
        return Data(#"{"status":"ok","results":[\#(articles.joined(separator: ","))]}"#.utf8)
    }

    /// 100 PNGs of 6300×6300 (each a small file, under the old 40 M pixel cap) on a page of 100
    /// with `timeout = 3s`: the report comes well inside the host's deadline, every headline in
    /// it, the small images stored and the huge ones refused at their header.
    func testAHundredHugePNGsDoNotHoldBackTheReport() throws {
        let huge = NotificationImageTests.image("png", 6300, 6300)
        XCTAssertLessThan(huge.count, 1024 * 1024, "the test image should be small on the wire")
        let base = server.baseURL.absoluteString
        let images = (1...100).map { $0 <= 3 ? "\(base)/small\($0).png" : "\(base)/huge\($0).png" }
        server.route(Self.apitubePath, .json(apitubePage(images)))
        for i in 1...3 { server.route("/small\(i).png", .respond(status: 200, headers: [:], body: NotificationImageTests.image("png", 400, 300))) }
        for i in 4...100 { server.route("/huge\(i).png", .respond(status: 200, headers: [:], body: huge)) }
        try cli.writeConfig("[source]\npage-size = 100\ntimeout = 3s\n")

        let run = try cli.reload(["--provider", "apitube", "--base-url", base],
                              environment: ["APITUBE_API_KEY": Self.apitubeKey], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertLessThan(run.elapsed, 3 + NotificationImageStore.stepSeconds + 2,
                          "the image step held the report back for \(run.elapsed) s")
        XCTAssertLessThan(run.elapsed, 3 + HostRunner.childDeadlineMargin, "the host would have killed this child")
        let report = try StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(run.stdout.utf8))
        XCTAssertNil(report.failure)
        XCTAssertEqual(report.headlines.count, 100)
        XCTAssertEqual(Set(report.images?.keys ?? [:].keys), ["1", "2", "3"], "only the small images are stored")
    }

    /// Ten images at the defaults, huge canvases (refused at their header) or 2000×2000 ones (each
    /// decoded): the reload child's peak resident memory stays small either way.
    func testTenHugeOrDecodedPNGsKeepTheReloadChildsPeakMemorySmall() throws {
        let base = server.baseURL.absoluteString
        for (kind, side, stored) in [("huge", Int32(6300), 0), ("mid", Int32(2000), 10)] {
            let image = NotificationImageTests.image("png", side, side)
            for i in 1...10 { server.route("/\(kind)\(i).png", .respond(status: 200, headers: [:], body: image)) }
            server.route(Self.apitubePath, .json(apitubePage((1...10).map { "\(base)/\(kind)\($0).png" })))
            // A world of its own for each, so no image is stored already.
            let world = try CLIRunner()
            defer { world.cleanUp() }
            let out = world.root.appendingPathComponent("report.json")
            let (status, peak) = try Self.peakMemory(of: world.reloadChild, ["--provider", "apitube", "--base-url", base],
                                                     environment: world.environment(["APITUBE_API_KEY": Self.apitubeKey]), stdout: out)
            XCTAssertEqual(status, 0, kind)
            let report = try StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(contentsOf: out))
            XCTAssertEqual(report.images?.count ?? 0, stored, "\(kind): the images stored")
            XCTAssertLessThan(peak, 100 * 1024, "\(kind): the reload child's peak resident memory, in kB")
        }
    }

    /// Runs `executable ARGS` to its end, stdout to `stdout`: its exit status and its peak resident
    /// memory (kB) as GNU time reports it. Not wait4 here: a process this test process starts
    /// directly inherits, at its exec, the peak of the test process's own memory.
    private static func peakMemory(of executable: URL, _ arguments: [String], environment: [String: String],
                                   stdout: URL) throws -> (status: Int32, peakKB: Int) {
        let peakFile = stdout.deletingLastPathComponent().appendingPathComponent("peak")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("GNU time (/usr/bin/time) is not installed, and it measures the child's peak (`make test` installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", peakFile.path, executable.path] + arguments
        process.environment = environment
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let peak = try String(contentsOf: peakFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return (process.terminationStatus, Int(peak.split(separator: "\n").last ?? "") ?? .max)
    }

    func testAJPEGCountsThePixelsItIsDecodedAtAndEverythingElseItsCanvas() {
        // libjpeg decodes a 6300×6300 JPEG at 1/8 (788×788) for a 256×256 icon.
        XCTAssertEqual(ImageScaler.decodedPixels("jpeg", 6300, 6300, fitted: (256, 256)), 788 * 788)
        XCTAssertEqual(ImageScaler.decodedPixels("jpeg", 600, 400, fitted: (256, 171)), 300 * 200)
        XCTAssertEqual(ImageScaler.decodedPixels("png", 6300, 6300, fitted: (256, 256)), 6300 * 6300)
        XCTAssertGreaterThan(ImageScaler.decodedPixels("png", 6300, 6300, fitted: (256, 256)), ImageScaler.maxDecodedPixels)
        XCTAssertNil(ImageScaler.scaledPNG(NotificationImageTests.image("png", 4000, 1200), until: .now + .seconds(60)),
                     "a PNG over the decoded-pixel cap was decoded")
        XCTAssertNotNil(ImageScaler.scaledPNG(NotificationImageTests.image("png", 2000, 1200), until: .now + .seconds(60)))
        XCTAssertNil(ImageScaler.scaledPNG(NotificationImageTests.image("png", 600, 400), until: .now),
                     "decoding went on past its deadline")
    }

    /// Twenty images that trickle in, six at a time: every download ends at the step's one
    /// deadline, not one timeout after each starts.
    func testEveryDownloadEndsAtTheStepsDeadline() {
        let urls = (1...20).map { i -> URL in
            server.route("/slow\(i).png", .trickle(status: 200, body: Data(repeating: 1, count: 4096), bytesPerSecond: 100))
            return URL(string: server.baseURL.absoluteString + "/slow\(i).png")!
        }
        let started = Date()
        var handed = 0
        ImageDownloads(maxImages: 20, timeout: 1, localAllowed: true).fetch(urls) { _, _, _ in handed += 1 }
        let took = Date().timeIntervalSince(started)
        XCTAssertLessThan(took, 2, "twenty queued downloads took \(took) s with a 1 s step")
        XCTAssertEqual(handed, 0)
    }

    // MARK: - Local services

    func testTheLocalNetworkRule() {
        for local in ["127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
                      "0.0.0.0", "100.64.0.1", "::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "::ffff:127.0.0.1",
                      "::ffff:192.168.0.1", "64:ff9b::a00:1", "[::1]", "localhost", "LOCALHOST.", "admin.localhost",
                      "2130706433", "0x7f.1", "127.1", "0177.0.0.1"] {
            XCTAssertTrue(LocalNetwork.named(host: local), "\(local) is on this network")
        }
        for outside in ["8.8.8.8", "172.32.0.1", "172.15.255.255", "192.169.0.1", "100.128.0.1", "198.51.100.7",
                        "2001:db8::1", "::ffff:8.8.8.8", "example.com", "localhost.example.com", "127.0.0.1.example.com", "deadbeef.com"] {
            XCTAssertFalse(LocalNetwork.named(host: outside), "\(outside) is not named as this network")
        }
        XCTAssertTrue(LocalNetwork.holdsAll([URL(string: "http://127.0.0.1:8080/feed")!, URL(string: "http://[::1]/x")!]))
        XCTAssertFalse(LocalNetwork.holdsAll([URL(string: "http://127.0.0.1:8080/feed")!, URL(string: "https://example.com/x")!]))
        XCTAssertFalse(LocalNetwork.holdsAll([]), "an API at its public default is not local")
    }

    /// An outside source's images: URLs that name loopback (in any spelling), a redirect to
    /// them, and a connection that only its address shows is local reach nothing local. Each
    /// check alone, with a rule that lets the other through: the address check with a "public"
    /// server on a second loopback port, the name check as through a proxy (which resolves
    /// names itself, so only the names are there to check).
    func testAnOutsideSourcesImagesNeverConnectToALocalService() throws {
        let service = LoopbackHTTPServer()
        try service.start()
        defer { service.stop() }
        service.route("/admin", .respond(status: 200, headers: [:], body: NotificationImageTests.image("png", 8, 8)))
        let servicePort = UInt16(service.baseURL.port!)
        server.route("/ok.png", .respond(status: 200, headers: [:], body: NotificationImageTests.image("png", 64, 64)))
        let admin = service.baseURL.absoluteString + "/admin?action=delete"
        server.route("/hop.png", .respond(status: 302, headers: ["Location": admin], body: Data()))
        let spellings = [admin, "http://localhost:\(servicePort)/admin", "http://2130706433:\(servicePort)/admin",
                         "http://0x7f.1:\(servicePort)/admin", "http://[::ffff:127.0.0.1]:\(servicePort)/admin"]
        let outside = server.baseURL.absoluteString
        let urls = (spellings + [outside + "/hop.png", outside + "/ok.png"]).map { URL(string: $0)! }

        var addresses = ImageDownloads(maxImages: 10, timeout: 5, localAllowed: false)
        addresses.refusedAddresses = ConnectRule(refusesHost: { _ in false }, refuses: { $0.port == servicePort })
        var fetched: [String] = []
        addresses.fetch(urls) { url, _, _ in fetched.append(url.path) }
        XCTAssertEqual(service.requests.count, 0, "a local service was connected to: \(service.requests)")
        XCTAssertEqual(fetched, ["/ok.png"])

        var names = ImageDownloads(maxImages: 10, timeout: 5, localAllowed: false)
        names.refusedAddresses = ConnectRule(refusesHost: LocalNetwork.named(host:), refuses: { _ in false })
        names.fetch(spellings.map { URL(string: $0)! }) { _, _, _ in }
        XCTAssertEqual(service.requests.count, 0, "a URL naming loopback was fetched: \(service.requests)")

        // The real rule: every loopback address and name, the "public" server's included.
        let asked = server.requests.count
        ImageDownloads(maxImages: 10, timeout: 5, localAllowed: false).fetch(urls) { url, _, _ in fetched.append(url.path) }
        XCTAssertEqual(server.requests.count, asked, "an outside source's image was fetched from loopback")
        XCTAssertEqual(service.requests.count, 0)
    }

    /// A whole reload child: feeds on 127.0.0.1 alone are the machine's own, and their images
    /// there are fetched; beside one outside feed (which does not even answer), they are not.
    func testTheReloadChildFetchesLocalImagesOnlyWhenEverySourceIsLocal() throws {
        let port = server.baseURL.port!
        server.route("/img.png", .respond(status: 200, headers: [:], body: NotificationImageTests.image("png", 64, 64)))
        server.route("/feed.rss", .respond(status: 200, headers: ["Content-Type": "application/rss+xml"], body: Data("""
            <?xml version="1.0"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>T</title>
            <item><title>One</title><link>https://news.example.com/1</link><guid>1</guid>
            <media:content url="http://127.0.0.1:\(port)/img.png" medium="image"/></item>
            </channel></rss>
            """.utf8)))
        let local = "http://127.0.0.1:\(port)/feed.rss"
        for (feeds, fetches) in [("\(local);https://news.invalid/feed.rss", 0), (local, 1)] {
            try cli.writeConfig("[source]\nprovider = feeds\nfeeds = \(feeds)\ntimeout = 3s\n")
            let before = server.requests.filter { $0.path == "/img.png" }.count
            let run = try cli.reload()
            XCTAssertEqual(run.status, 0, run.stderr)
            let report = try StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(run.stdout.utf8))
            XCTAssertNil(report.failure, run.stdout)
            XCTAssertEqual(report.headlines.first?.imageURL?.absoluteString, "http://127.0.0.1:\(port)/img.png")
            XCTAssertEqual(server.requests.filter { $0.path == "/img.png" }.count - before, fetches, "feeds \(feeds)")
            XCTAssertEqual(report.images?.count ?? 0, fetches, "feeds \(feeds): \(run.stdout)")
        }
    }
}
