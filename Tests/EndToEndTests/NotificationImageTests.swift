import CGLibNotify
import Foundation
import HeadlinesCore
import HeadlinesDesktop
import HeadlinesHTTP
import HeadlinesImages
import TestSupport
import XCTest

/// Notification images: fetched with no key from a loopback server, bounded, scaled with
/// gdk-pixbuf, stored 0600 and pruned; and the reload child's report names them.
final class NotificationImageTests: EndToEndTestCase {
    /// A solid `width`×`height` image encoded by gdk-pixbuf as `type` ("png" or "jpeg").
    static func image(_ type: String, _ width: Int32, _ height: Int32) -> Data {
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height)!
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, 0x3366_ccff)
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        precondition(gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, type, nil, nil, nil) != 0)
        defer { g_free(buffer) }
        return Data(bytes: buffer!, count: Int(size))
    }

    /// The size of an encoded image, as gdk-pixbuf reads it back.
    static func dimensions(_ data: Data) -> (Int32, Int32)? {
        let loader = gdk_pixbuf_loader_new()!
        defer { g_object_unref(loader) }
        let ok = data.withUnsafeBytes { gdk_pixbuf_loader_write(loader, $0.bindMemory(to: UInt8.self).baseAddress, gsize($0.count), nil) }
        guard ok != 0, gdk_pixbuf_loader_close(loader, nil) != 0, let p = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        return (gdk_pixbuf_get_width(p), gdk_pixbuf_get_height(p))
    }

    /// A minute from now: a deadline no scaling in these tests reaches.
    static var later: ContinuousClock.Instant { .now + .seconds(60) }

    func testScalesPNGAndJPEGDownToAtMost256AndRefusesWhatIsNotAnImage() throws {
        let png = try XCTUnwrap(ImageScaler.scaledPNG(Self.image("png", 600, 400), until: Self.later))
        XCTAssertTrue(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "the stored image is not a PNG")
        XCTAssertEqual(Self.dimensions(png).map { [$0.0, $0.1] }, [256, 171])
        let jpeg = try XCTUnwrap(ImageScaler.scaledPNG(Self.image("jpeg", 1000, 1000), until: Self.later))
        XCTAssertEqual(Self.dimensions(jpeg).map { [$0.0, $0.1] }, [256, 256])
        let small = try XCTUnwrap(ImageScaler.scaledPNG(Self.image("png", 40, 30), until: Self.later))
        XCTAssertEqual(Self.dimensions(small).map { [$0.0, $0.1] }, [40, 30], "a small image is never enlarged")
        var broken = Self.image("png", 300, 300)
        broken.replaceSubrange(40..<broken.count, with: Data(repeating: 0x5A, count: 400))
        XCTAssertNil(ImageScaler.scaledPNG(broken, until: Self.later), "a broken PNG was stored")
        XCTAssertNil(ImageScaler.scaledPNG(Data("<svg xmlns='http://www.w3.org/2000/svg' width='9' height='9'/>".utf8), until: Self.later),
                     "SVG is not decoded")
        XCTAssertNil(ImageScaler.scaledPNG(Data(), until: Self.later))
    }

    func testDownloadsSendNoKeyTakeOnlyHTTPAndDropTheOversized() throws {
        server.route("/a.png", .respond(status: 200, headers: ["Content-Type": "image/png"], body: Self.image("png", 300, 200)))
        server.route("/b.jpg", .respond(status: 200, headers: ["Content-Type": "image/jpeg"], body: Self.image("jpeg", 64, 64)))
        server.route("/huge.png", .unframed(status: 200, body: Data(repeating: 7, count: 3 * 1024 * 1024)))
        server.route("/gone.png", .respond(status: 404, headers: [:], body: Data("no".utf8)))
        let base = server.baseURL.absoluteString
        let urls = ["/a.png", "/b.jpg", "/huge.png", "/gone.png"].map { URL(string: base + $0)! }
            + [URL(string: "file:///etc/passwd")!, URL(string: "ftp://127.0.0.1/x.png")!]
        var bodies: [URL: Data] = [:]
        ImageDownloads(maxImages: 10, timeout: 5, localAllowed: true).fetch(urls) { url, body, _ in bodies[url] = body }
        XCTAssertEqual(Set(bodies.keys.map(\.path)), ["/a.png", "/b.jpg"])
        XCTAssertEqual(server.requests.count, 4, "only the http URLs are requested: \(server.requests)")
        for request in server.requests {
            XCTAssertNil(request.header("x-api-key"), "\(request) carried X-API-Key")
            XCTAssertNil(request.header("authorization"), "\(request) carried Authorization")
        }
    }

    func testStoreWritesPrivateFilesAndPruneKeepsOnlyTheCurrentImages() throws {
        let folder = cli.cacheHome.appendingPathComponent("headlines/images").path
        let store = NotificationImageStore(folder: folder)
        let opened = try store.open().get()
        let a = URL(string: "https://img.example.com/a.png")!, b = URL(string: "https://img.example.com/b.png")!
        let pathA = try XCTUnwrap(store.store(Self.image("png", 500, 500), for: a, in: opened, until: Self.later))
        let pathB = try XCTUnwrap(store.store(Self.image("png", 20, 20), for: b, in: opened, until: Self.later))
        XCTAssertTrue(pathA.hasPrefix(folder + "/") && pathA.hasSuffix(".png"))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: pathA)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int, 0o700)
        // A killed writer's temporary goes; a file of the person's own stays, whatever its name.
        let leftover = folder + "/." + store.name(for: b) + ".tmp-999999999-1"
        _ = FileManager.default.createFile(atPath: leftover, contents: Data("half".utf8))
        _ = FileManager.default.createFile(atPath: folder + "/stray.png", contents: Data("x".utf8))
        XCTAssertEqual(store.prune(keeping: [a], in: opened), 2)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(),
                       [PathText.lastComponent(of: pathA), "stray.png"].sorted())
        XCTAssertFalse(store.holds(b, in: opened))
        XCTAssertFalse(FileManager.default.fileExists(atPath: pathB))
        var capped = store
        capped.maxFiles = 0
        XCTAssertEqual(capped.prune(keeping: [a], in: opened), 1, "the size cap applies to wanted images too")
    }

    /// `images` a link to a folder of the person's own: refused before anything is stored or
    /// removed, through the store and through a whole reload child, with one warning.
    func testASymlinkedImagesFolderIsRefusedAndNothingInItsTargetIsDeleted() throws {
        let folder = cli.cacheHome.appendingPathComponent("headlines/images").path
        let theirs = cli.root.appendingPathComponent("home/Pictures").path
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: PathText.directory(of: folder), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: theirs)
        let store = NotificationImageStore(folder: folder)
        // Their files, one of them named as a stored image would be.
        let own = [store.name(for: URL(string: "https://img.example.com/old.png")!), "thesis.tex", "photo.jpg"]
        for name in own { _ = FileManager.default.createFile(atPath: theirs + "/" + name, contents: Data(name.utf8)) }

        guard case let .failure(refusal) = store.open() else { return XCTFail("a symlinked images folder was opened") }
        XCTAssertTrue(refusal.description.contains("symbolic link") && refusal.description.contains("images = false"), refusal.description)

        let base = server.baseURL.absoluteString
        server.route(Self.apitubePath, .json(Data(#"{"status":"ok","results":[{"id":1,"title":"One","href":"https://news.example.com/1","published_at":"2026-11-29T21:50:00Z","source":{"domain":"example.com"},"image":"\#(base)/one.png"}]}"#.utf8)))
        server.route("/one.png", .respond(status: 200, headers: [:], body: Self.image("png", 300, 300)))
        let run = try cli.reload(["--provider", "apitube", "--base-url", base],
                              environment: ["APITUBE_API_KEY": Self.apitubeKey])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: theirs).sorted(), own.sorted(),
                       "the reload deleted or added files in the folder the link points to")
        let report = try StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(report.headlines.count, 1)
        XCTAssertNil(report.images, "an image was stored through the link")
        XCTAssertEqual(server.requests.filter { $0.path == "/one.png" }.count, 0, "the image was fetched with nowhere to store it")
        let warnings = run.stderrLines.filter { $0.contains(folder) }
        XCTAssertEqual(warnings.count, 1, "not one warning naming the folder: \(run.stderr)")
        XCTAssertTrue(warnings.first?.contains("symbolic link") ?? false, run.stderr)
    }

    func testReportsFromBeforeImagesStillDecodeAndImagesRoundTrip() throws {
        let old = Data(#"{"headlines":[],"partialFailures":[],"requestsSent":1}"#.utf8)
        XCTAssertNil(try StateJSONDecoder.headlines().decode(ReloadReport.self, from: old).images)
        var report = ReloadReport(headlines: [], fetchedAt: nil, failure: nil)
        report.images = ["7": "/tmp/x.png"]
        let back = try StateJSONDecoder.headlines().decode(ReloadReport.self, from: StateJSONEncoder.headlines().encode(report))
        XCTAssertEqual(back.images, ["7": "/tmp/x.png"])
    }

    /// The whole child: APITube answers with headlines whose images live on the same loopback
    /// server; the report names the stored files and no image request carried the key.
    func testReloadChildReportsStoredImagesAndNeverSendsTheKeyForThem() throws {
        let base = server.baseURL.absoluteString
        let articles = (1...3).map { i in
            #"{"id":\#(i),"title":"Story \#(i)","href":"https://news.example.com/\#(i)","published_at":"2026-11-29T21:5\#(i):00Z","source":{"domain":"example.com"},"image":"\#(i == 3 ? "" : base + "/img\(i).png")"}"#
        }
        server.route(Self.apitubePath, .json(Data(#"{"status":"ok","results":[\#(articles.joined(separator: ","))]}"#.utf8)))
        server.route("/img1.png", .respond(status: 200, headers: [:], body: Self.image("png", 800, 600)))
        server.route("/img2.png", .respond(status: 200, headers: [:], body: Data("not an image".utf8)))
        let run = try cli.reload(["--provider", "apitube", "--base-url", base],
                              environment: ["APITUBE_API_KEY": Self.apitubeKey])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(run.stdout.utf8))
        let images = try XCTUnwrap(report.images, "the report names no image: \(run.stdout)")
        XCTAssertEqual(Array(images.keys), ["1"], "only the decodable image is named")
        let stored = try XCTUnwrap(FileManager.default.contents(atPath: images["1"]!))
        XCTAssertEqual(Self.dimensions(stored).map { [$0.0, $0.1] }, [256, 192])
        let imageRequests = server.requests.filter { $0.path.hasPrefix("/img") }
        XCTAssertEqual(imageRequests.count, 2)
        for request in imageRequests { XCTAssertNil(request.header("x-api-key"), "the key went with \(request)") }

        // A second reload asks for nothing it already has (the broken one is asked again).
        let again = try cli.reload(["--provider", "apitube", "--base-url", base],
                                environment: ["APITUBE_API_KEY": Self.apitubeKey])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(server.requests.filter { $0.path == "/img1.png" }.count, 1)

        // `[notify] images = false`: no image request at all.
        try cli.writeConfig("[notify]\nimages = false\n")
        let before = server.requests.count
        let off = try cli.reload(["--provider", "apitube", "--base-url", base],
                              environment: ["APITUBE_API_KEY": Self.apitubeKey])
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertEqual(server.requests.count - before, 1, "images = false still fetched images")
        XCTAssertNil(try StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(off.stdout.utf8)).images)
    }

    func testReloadChildCutsOneSquareThumbnailPerStoredImageForTheWidgetDocument() throws {
        // Given a page whose first headline has an image
        let base = server.baseURL.absoluteString
        let article = #"{"id":1,"title":"Story","href":"https://news.example.com/1","published_at":"2026-11-29T21:51:00Z","source":{"domain":"example.com"},"image":"\#(base)/img1.png"}"#
        server.route(Self.apitubePath, .json(Data(#"{"status":"ok","results":[\#(article)]}"#.utf8)))
        server.route("/img1.png", .respond(status: 200, headers: [:], body: Self.image("png", 800, 600)))

        // When the reload child runs
        let run = try cli.reload(["--provider", "apitube", "--base-url", base],
                              environment: ["APITUBE_API_KEY": Self.apitubeKey])
        XCTAssertEqual(run.status, 0, run.stderr)
        let images = try XCTUnwrap(try StateJSONDecoder.headlines().decode(ReloadReport.self, from: Data(run.stdout.utf8)).images)

        // Then a 64 px square thumbnail sits beside the images, named like its image, 0600
        let thumbnail = NotificationImageStore.thumbnailPath(ofImage: images["1"]!)
        XCTAssertTrue(thumbnail.hasSuffix("/headlines/thumbnails/" + PathText.lastComponent(of: images["1"]!)), thumbnail)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: thumbnail), "no thumbnail at \(thumbnail)")
        XCTAssertEqual(Self.dimensions(bytes).map { [$0.0, $0.1] }, [64, 64])
        let attributes = try FileManager.default.attributesOfItem(atPath: thumbnail)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(NotificationImageStore.existingThumbnails(of: images), ["1": thumbnail])

        // And the next reload makes it no second time
        let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue
        let again = try cli.reload(["--provider", "apitube", "--base-url", base],
                                environment: ["APITUBE_API_KEY": Self.apitubeKey])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: thumbnail)[.systemFileNumber] as? NSNumber)?.intValue, inode,
                       "the thumbnail was made again")

        // And a stored image that is not a PNG of ours gives none
        XCTAssertNil(ThumbnailScaler.squarePNG(fromStoredPNG: Self.image("jpeg", 50, 50)))
        XCTAssertNil(ThumbnailScaler.squarePNG(fromStoredPNG: Self.image("png", 600, 300)), "larger than a stored image")
    }
}
