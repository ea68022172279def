import FoundationEssentials
import HeadlinesCore
import HeadlinesCommandLine

/// The commands that fetch from a server or parse a feed, OPML or HTML page run in
/// `headlines-fetch`, the program that links libcurl and libxml2, as git leaves its HTTP
/// transport to git-remote-http: this program stays a small control client, quick to start
/// for every bar click, and the bytes a server sends are parsed in one place.
enum NetworkCommands {
    /// The commands the table puts there.
    static let names = Set(CommandTable.commands.filter { $0.isPublic && $0.program == .fetch }.flatMap(\.names))

    /// Becomes `headlines-fetch` with the same arguments and environment (the API keys this
    /// process removed from its own are in `environment`); returns only when that failed.
    static func hand(_ argv: [String], environment: [String: String]) -> Int32 {
        Sibling.replace(with: "headlines-fetch", argv, environment: environment)
    }
}
