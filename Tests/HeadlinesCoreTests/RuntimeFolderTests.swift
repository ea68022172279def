import Foundation
import HeadlinesCore
import XCTest

/// `$XDG_RUNTIME_DIR/headlines` is ours or nothing: a private directory of ours, created 0700;
/// its files opened without following links and checked on the descriptor. Another user is
/// simulated two ways: `userID:` (always), and a real chown to nobody (65534) when run as root,
/// as CI does.
final class RuntimeFolderTests: XCTestCase {
    private var root = ""
    private var folder: String { root + "/run/headlines" }
    private let nobody: UInt32 = 65534

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "runtime-folder-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDown() {
        _ = try? FileManager.default.removeItem(atPath: root)
    }

    private func mode(_ path: String) -> mode_t {
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0, path)
        return st.st_mode & 0o7777
    }

    private func refusal<T>(_ body: () throws -> T) -> RuntimeFolderRefusal? {
        do { _ = try body(); XCTFail("not refused"); return nil } catch let refusal as RuntimeFolderRefusal { return refusal } catch {
            XCTFail("refused with \(error), not a RuntimeFolderRefusal"); return nil
        }
    }

    private func write(_ text: String, to path: String, mode: mode_t = 0o600) {
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        XCTAssertEqual(chmod(path, mode), 0)
    }

    private func requireRoot() throws {
        guard getuid() == 0 else { throw XCTSkip("chown to another user needs root (CI runs as root)") }
    }

    // MARK: the folder

    func testAMissingFolderIsCreatedPrivateWithItsMissingRuntimeFolderParent() throws {
        // Given no $XDG_RUNTIME_DIR yet (root/run does not exist)
        let identity = try RuntimeFolder.ensurePrivate(folder)
        XCTAssertEqual(mode(folder), 0o700)
        XCTAssertEqual(RuntimeFolder.identity(folder), identity)
        // Called again it is the same folder
        XCTAssertEqual(try RuntimeFolder.ensurePrivate(folder), identity)
    }

    func testTheIdentityTellsARecreatedFolderFromTheOldOne() throws {
        let first = try RuntimeFolder.ensurePrivate(folder)
        // A file keeps the old inode busy, so the recreated folder cannot reuse its number.
        let keep = open(folder, O_RDONLY | O_DIRECTORY)
        defer { close(keep) }
        try FileManager.default.removeItem(atPath: folder)
        XCTAssertNil(RuntimeFolder.identity(folder))
        XCTAssertNil(try RuntimeFolder.inspect(folder), "inspect never creates")
        XCTAssertNotEqual(try RuntimeFolder.ensurePrivate(folder), first)
    }

    func testAFolderOthersCanUseIsRefusedInOneSentence() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(folder, 0o777), 0)
        let refused = refusal { try RuntimeFolder.ensurePrivate(folder) }
        XCTAssertEqual(refused?.problem, .openToOthers(mode: 0o777))
        XCTAssertEqual(refused?.description,
                       "\(folder) is open to other users (mode 0777): remove it or set XDG_RUNTIME_DIR to a folder of your own.")
        XCTAssertEqual(mode(folder), 0o777, "never silently chmod-ed: someone else may have planted files")
        // Group read alone is enough to refuse
        XCTAssertEqual(chmod(folder, 0o750), 0)
        XCTAssertEqual(refusal { try RuntimeFolder.inspect(folder) }?.problem, .openToOthers(mode: 0o750))
    }

    func testAFolderOfOursOthersCanOnlyReadIsTightenedByEnsureButRefusedByInspect() throws {
        // As `mkdir -p` under umask 022 makes it (older systemd units did): nobody else could write.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(folder, 0o755), 0)
        let refused = refusal { try RuntimeFolder.inspect(folder) }
        XCTAssertEqual(refused?.description,
                       "\(folder) is open to other users (mode 0755): remove it or set XDG_RUNTIME_DIR to a folder of your own.")
        XCTAssertEqual(mode(folder), 0o755, "inspect only looks")
        try RuntimeFolder.ensurePrivate(folder)
        XCTAssertEqual(mode(folder), 0o700)
        // Writable by the group is another matter: something may have been planted
        XCTAssertEqual(chmod(folder, 0o770), 0)
        XCTAssertEqual(refusal { try RuntimeFolder.ensurePrivate(folder) }?.problem, .openToOthers(mode: 0o770))
        XCTAssertEqual(mode(folder), 0o770)
    }

    func testAFolderOfAnotherUserIsRefused() throws {
        try RuntimeFolder.ensurePrivate(folder)
        // Seen as another user, our folder is foreign
        let refused = refusal { try RuntimeFolder.inspect(folder, userID: getuid() + 1) }
        XCTAssertEqual(refused?.problem, .ownedBy(uid: getuid()))
        XCTAssertEqual(refused?.description,
                       "\(folder) is owned by uid \(getuid()), not you: remove it or set XDG_RUNTIME_DIR to a folder of your own.")
    }

    func testAFolderChownedToNobodyIsRefused() throws {
        try requireRoot()
        try RuntimeFolder.ensurePrivate(folder)
        XCTAssertEqual(chown(folder, nobody, nobody), 0)
        XCTAssertEqual(refusal { try RuntimeFolder.ensurePrivate(folder) }?.problem, .ownedBy(uid: nobody))
    }

    func testALinkOrAFileWhereTheFolderShouldBeIsRefused() throws {
        let elsewhere = root + "/elsewhere"
        try RuntimeFolder.ensurePrivate(elsewhere)  // private and ours: the link alone is the fault
        try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true)
        XCTAssertEqual(symlink(elsewhere, folder), 0)
        XCTAssertEqual(refusal { try RuntimeFolder.ensurePrivate(folder) }?.problem, .symbolicLink)
        XCTAssertEqual(unlink(folder), 0)
        write("", to: folder)
        let refused = refusal { try RuntimeFolder.ensurePrivate(folder) }
        XCTAssertEqual(refused?.problem, .wrongKind)
        XCTAssertEqual(refused?.description, "\(folder) is not a folder: remove it or set XDG_RUNTIME_DIR to a folder of your own.")
    }

    func testPathsInTheHomeFolderAreShownWithATilde() {
        let home = String(cString: getenv("HOME"))
        let refused = RuntimeFolderRefusal(path: home + "/.cache/headlines-runtime/headlines", problem: .ownedBy(uid: 1001), isFolder: true)
        XCTAssertEqual(refused.description,
                       "~/.cache/headlines-runtime/headlines is owned by uid 1001, not you: remove it or set XDG_RUNTIME_DIR to a folder of your own.")
    }

    // MARK: its files

    func testALinkedFileIsNeverOpenedNorItsTargetTruncatedOrCreated() throws {
        try RuntimeFolder.ensurePrivate(folder)
        let target = root + "/precious"
        write("keep me\n", to: target)
        XCTAssertEqual(symlink(target, folder + "/host.lock"), 0)
        let refused = refusal { try RuntimeFolder.openPrivate(folder + "/host.lock", flags: O_RDWR | O_CREAT | O_TRUNC) }
        XCTAssertEqual(refused?.problem, .symbolicLink)
        XCTAssertEqual(refused?.description, "\(folder)/host.lock is a symbolic link, which headlines never follows there: remove it.")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "keep me\n")
        // A dangling link must not create its target either
        XCTAssertEqual(symlink(root + "/made-by-us", folder + "/timeline.json"), 0)
        XCTAssertEqual(refusal { try RuntimeFolder.openPrivate(folder + "/timeline.json", flags: O_RDWR | O_CREAT) }?.problem, .symbolicLink)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/made-by-us"))
        XCTAssertThrowsError(try RuntimeFolder.readPrivate(folder + "/host.lock"))
    }

    func testAPlantedFIFOIsRefusedWithoutBlocking() throws {
        try RuntimeFolder.ensurePrivate(folder)
        XCTAssertEqual(mkfifo(folder + "/timeline.json", 0o600), 0)
        let started = Date()
        // Without O_NONBLOCK this open would wait for a writer forever.
        XCTAssertEqual(refusal { try RuntimeFolder.readPrivate(folder + "/timeline.json") }?.problem, .wrongKind)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
    }

    func testAFileOthersCanWriteIsRefusedButReadableByOthersIsNot() throws {
        try RuntimeFolder.ensurePrivate(folder)
        write("1\n", to: folder + "/offset.json", mode: 0o644)
        XCTAssertEqual(try RuntimeFolder.readPrivate(folder + "/offset.json"), Data("1\n".utf8))
        XCTAssertEqual(chmod(folder + "/offset.json", 0o620), 0)
        let refused = refusal { try RuntimeFolder.readPrivate(folder + "/offset.json") }
        XCTAssertEqual(refused?.problem, .openToOthers(mode: 0o620))
        XCTAssertEqual(refused?.description, "\(folder)/offset.json is writable to other users (mode 0620): remove it.")
    }

    func testAFileOfAnotherUserIsRefused() throws {
        try RuntimeFolder.ensurePrivate(folder)
        write("{}", to: folder + "/timeline.json")
        XCTAssertEqual(refusal { try RuntimeFolder.readPrivate(folder + "/timeline.json", userID: getuid() + 1) }?.problem,
                       .ownedBy(uid: getuid()))
        if getuid() == 0 {
            XCTAssertEqual(chown(folder + "/timeline.json", nobody, nobody), 0)
            XCTAssertEqual(refusal { try RuntimeFolder.readPrivate(folder + "/timeline.json") }?.problem, .ownedBy(uid: nobody))
        }
    }

    func testAMissingFileReadsAsNilAndOurOwnFileReads() throws {
        try RuntimeFolder.ensurePrivate(folder)
        XCTAssertNil(try RuntimeFolder.readPrivate(folder + "/timeline.json"))
        write("hello", to: folder + "/timeline.json")
        XCTAssertEqual(try RuntimeFolder.readPrivate(folder + "/timeline.json"), Data("hello".utf8))
        let fd = try RuntimeFolder.openPrivate(folder + "/new", flags: O_RDWR | O_CREAT)
        close(fd)
        XCTAssertEqual(mode(folder + "/new"), 0o600)
    }

    // MARK: the stores that live there

    func testTheRotationOffsetIsNotReadThroughALink() throws {
        try RuntimeFolder.ensurePrivate(folder)
        let elsewhere = root + "/offset.json"
        write("{\"offset\":7}", to: elsewhere)
        XCTAssertEqual(JSONStateFile(rotationOffsetAt: elsewhere).load(now: Date(), warn: { XCTFail($0) }), RotationOffset(offset: 7))
        XCTAssertEqual(symlink(elsewhere, folder + "/offset.json"), 0)
        var warnings: [String] = []
        XCTAssertNil(JSONStateFile(rotationOffsetAt: folder + "/offset.json").load(now: Date(), warn: { warnings.append($0) }))
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("symbolic link") == true, "\(warnings)")
    }
}
