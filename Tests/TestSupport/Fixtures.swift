import Foundation
import HeadlinesSources

/// The repository's `Fixtures/` folder, found from this file's path so tests run from anywhere.
public enum FixturePaths {
    public static var root: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // TestSupport
            .deletingLastPathComponent()   // Tests
            .deletingLastPathComponent()   // package root
            .appendingPathComponent("Fixtures")
    }

    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// A fixture that must exist: a missing one is a broken checkout, so this stops with its path.
    public static func data(_ relative: String) -> Data {
        guard let data = optionalData(relative) else {
            fatalError("fixture \(url(relative).path) is missing")
        }
        return data
    }

    /// A fixture that may not have been written yet.
    public static func optionalData(_ relative: String) -> Data? {
        FileManager.default.contents(atPath: url(relative).path)
    }

    /// A fixture served as an HTTP response, the way a transport hands it to a provider.
    public static func response(_ relative: String, status: Int = 200, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"].merging(headers) { _, new in new },
                     body: data(relative))
    }
}
