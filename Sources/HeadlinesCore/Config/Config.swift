import FoundationEssentials

/// Everything the config file can set, with the defaults that apply when it does not.
/// Built by `Config.parse(groups:file:)` from the key file's raw strings, so that validation is
/// pure and testable; the desktop module only reads the file with GKeyFile.
public struct Config: Equatable, Sendable {
    public enum Provider: String, Sendable, CaseIterable {
        case apitube, newsapi, feeds, json
        case hackernews, reddit, lobsters, guardian, nyt, gnews
        /// Sync services: the user's own reader account (Config+Sync.swift).
        case greader, fever, miniflux, nextcloud
        public var displayName: String {
            switch self {
            case .apitube: return "APITube"
            case .newsapi: return "NewsAPI"
            case .feeds: return "Feeds"
            case .json: return "JSON API"
            case .hackernews: return "Hacker News"
            case .reddit: return "Reddit"
            case .lobsters: return "Lobsters"
            case .guardian: return "The Guardian"
            case .nyt: return "The New York Times"
            case .gnews: return "GNews"
            case .greader: return "Google Reader API"
            case .fever: return "Fever API"
            case .miniflux: return "Miniflux"
            case .nextcloud: return "Nextcloud News"
            }
        }
        /// The environment variable holding the key, for the providers that need one.
        public var keyVariable: String? {
            switch self {
            case .apitube: return "APITUBE_API_KEY"
            case .newsapi: return "NEWSAPI_API_KEY"
            case .guardian: return "GUARDIAN_API_KEY"
            case .nyt: return "NYT_API_KEY"
            case .gnews: return "GNEWS_API_KEY"
            case .feeds, .json, .hackernews, .reddit, .lobsters, .greader, .fever, .miniflux, .nextcloud: return nil
            }
        }
        /// Where the key of `provider = json` comes from, when `api-key-header` or `api-key-param` asks for one.
        public static let jsonKeyVariable = "HEADLINES_JSON_API_KEY"
        /// Every variable that may hold a key: the reload child alone gets them; every program
        /// started for the user (a browser, a launcher, the CLI a click runs) gets none.
        public static var keyVariables: [String] { allCases.compactMap(\.keyVariable) + [jsonKeyVariable] }
    }

    /// Major public news feeds, read when nothing else is configured and no key is set. Change them
    /// with `[source] feeds = URL;URL;...`.
    public static let defaultFeeds = [
        "https://feeds.bbci.co.uk/news/world/rss.xml",
        "https://feeds.npr.org/1001/rss.xml",
        "https://www.theguardian.com/world/rss",
        "https://www.aljazeera.com/xml/rss/all.xml",
    ].map { URL(string: $0)! }

    // [source]
    public var provider: Provider = .apitube
    /// False when the file does not name a provider: then the environment decides (a key set for
    /// APITube or NewsAPI picks it, else the keyless feeds). See `resolvedProvider`.
    public var providerIsExplicit = false
    public var feeds: [URL] = Config.defaultFeeds
    /// `[source] feed-intervals`: a feed's own interval, by its URL as written; a scheduled
    /// reload fetches that feed no more often (an explicit refresh still does).
    public var feedIntervals: [String: TimeInterval] = [:]
    /// `[source] feed-policies`: a feed's own notification policy, by its URL as written.
    public var feedPolicies: [String: NotifyPolicy] = [:]
    /// `provider = json`: where its key goes, if it takes one (`api-key-header`, `api-key-param`).
    public var jsonKey: JSONKeyPlacement?
    /// `[source] user-agent`: sent instead of headlines' own (Reddit refuses generic ones).
    public var userAgent: String?
    /// `[source] feeds-from`: a subscription file read at each fetch; its feeds come after `feeds`.
    /// When set without `feeds`, `feeds` is empty (the defaults are not mixed in).
    public var feedsFrom: FeedsFrom?
    /// `provider = json`: the URL and the key paths into its JSON.
    public var jsonURL: URL?
    public var jsonPaths = JSONPaths()
    public var baseURL: URL?
    public var country: String = ""
    public var language: String = "en"
    public var category: String = ""
    public var query: String = ""
    public var pageSize: Int = 10
    /// `[source] subreddits`: Reddit's subreddits, empty for the front page.
    public var subreddits: [String] = []
    /// `[source] sort`: Reddit's hot, new or top; Lobsters' hottest or newest; empty for the default.
    public var sort: String = ""
    /// `[source] section`: The Guardian's or The New York Times' section, empty for the front page.
    public var section: String = ""
    /// True when the file sets `page-size`: feeds then keep that many of the merged headlines
    /// (their own default, 40, otherwise: 10 is an API page, not a reading list).
    public var pageSizeIsExplicit = false
    public var apiKeyFile: String?
    /// A sync service's account (`username`, `password-command`, `password-file`): Config+Sync.swift.
    public var sync = SyncAccountSettings()
    public var timeout: TimeInterval = 30
    // [refresh]
    public var interval: TimeInterval = 30 * 60
    public var dailyBudget: Int = 48
    // [notify]
    public var notifyEnabled: Bool = true
    public var maxPerRefresh: Int = 3
    /// Headline images in notifications (`[notify] images`).
    public var notifyImages: Bool = true
    /// `[notify] keywords`: when set, only headlines matching one of them (whole words, any case:
    /// `KeywordMatcher`) are notified, and the bars mark them. Empty: every new headline.
    public var keywords: [String] = []
    /// `[notify] mute-words`: headlines matching one of them are hidden from notifications and bars.
    public var muteWords: [String] = []
    /// `[notify] policy`; nil when unset (`KeywordAlerts.policy(for:)` says what applies then).
    public var notifyPolicy: NotifyPolicy?
    /// `[notify] max-per-hour`: notifications (digests and summaries included) posted in any hour,
    /// across reloads; what comes past it is counted into one summary.
    public var maxPerHour: Int = 20
    /// `[notify] quiet-hours = 22:00-07:00`: local clock times in which nothing is notified;
    /// one summary follows. nil: no quiet hours.
    public var quietHours: QuietHours?
    // [bar]
    public var rotate: TimeInterval = 0
    public var maxLength: Int = 60
    /// The dmenu-style program for `headlines menu`; nil = the first of `KnownLaunchers` found.
    public var launcher: String?
    /// `[widget NAME]` groups, by name: their keys as written, applied over the top-level groups
    /// by `widget(named:)`. Empty: the one-widget config of every earlier version.
    public var widgetGroups: [String: [String: String]] = [:]
    /// Sentences about values that were accepted but look wrong (an inline comment), each naming
    /// the key and the file; the command line prints them as warnings.
    public var warnings: [String] = []

    public init() {}

    /// The keys each group accepts and what a value must look like, in the words an error uses.
    static let schema: [String: [String: String]] = [
        "source": [
            "provider": "one of " + Provider.allCases.map(\.rawValue).joined(separator: ", "),
            "base-url": "an http or https URL",
            "country": "a two-letter country code such as us, or empty",
            "language": "a two-letter language code such as en, or empty",
            "category": "a NewsAPI category such as technology, or empty",
            "query": "search words, or empty",
            "page-size": "a whole number from 1 to 100",
            "api-key-file": "the path of a file holding only the key",
            "timeout": "a duration from 1s to 5m, such as 30s",
            "feeds": "feed URLs (http or https) separated by ;",
            "feed-intervals": "feed URLs each followed by a duration from 1s to 24h, separated by ;, such as https://example.com/feed.xml 2h",
            "feed-policies": "feed URLs each followed by all, alerts or none, separated by ;, such as https://example.com/feed.xml alerts",
            "feeds-from": "the path of an OPML or newsboat urls file, optionally with #tag or #tag1,tag2",
            "url": "the JSON API's http or https URL",
            "items-path": "a dotted key path to the list, such as data.items, or empty for the top level",
            "title-path": "a dotted key path inside an item, such as title",
            "link-path": "a dotted key path inside an item, such as url",
            "link-template": "a URL with {key.path} placeholders, such as https://example.com/posts/{id}",
            "date-path": "a dotted key path inside an item, such as published_at",
            "id-path": "a dotted key path inside an item, such as id",
            "source-path": "a dotted key path inside an item, such as source.name",
            "image-path": "a dotted key path inside an item, such as image.url",
            "comments-path": "a dotted key path inside an item, such as comments_url",
            "error-path": "a dotted key path to an error answer's message, such as error.message",
            "api-key-header": "the name of the header the JSON API takes its key in, such as X-Api-Key",
            "api-key-param": "the name of the query parameter the JSON API takes its key in, such as apikey",
            "user-agent": "the User-Agent to send, such as my-headlines/1.0 (by you@example.com)",
            "html-unescape": "true or false",
            "subreddits": "subreddit names separated by ; or +, such as linux;programming, or empty for the front page",
            "sort": "hot, new or top for Reddit; hottest or newest for Lobsters",
            "section": "a section name such as world or technology, or empty for the front page",
            "username": "the sync service's user name, such as alice",
            "password-command": "a command line (no shell) that prints the password, such as pass show freshrss",
            "password-file": "the path of a file, readable only by you, holding only the password",
        ],
        "refresh": [
            "interval": "a duration from 1s to 24h, such as 30m",
            "daily-budget": "a whole number from 1 to 86400",
        ],
        "notify": [
            "enabled": "true or false",
            "max-per-refresh": "a whole number from 1 to 50",
            "images": "true or false",
            "keywords": "words or \"quoted phrases\" separated by ; or a comma, or empty",
            "mute-words": "words or \"quoted phrases\" separated by ; or a comma, or empty",
            "policy": "all, alerts (only keyword matches) or none",
            "max-per-hour": "a whole number from 1 to 500",
            "quiet-hours": "a span of the 24-hour clock such as 22:00-07:00, or empty for none",
        ],
        "bar": [
            "rotate": "a duration such as 10s, or 0 for no rotation",
            "max-length": "a whole number from 10 to 500",
            "launcher": "a dmenu-style command line such as rofi -dmenu -i",
        ],
    ]
}

/// A config file problem, worded to name the file, the key and what is accepted.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// `--widget NAME` or the i3blocks `instance=` names no widget of the file: no host can serve
    /// it, so a bar shows the sentence itself instead of handing over to one.
    public var namesNoWidget = false
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Config {
    /// Validates the raw strings of a key file (`groups[group][key]`), starting from the defaults.
    public static func parse(groups: [String: [String: String]], file: String) throws(ConfigError) -> Config {
        var config = Config()
        for (group, keys) in groups.sorted(by: { $0.key < $1.key }) {
            if let name = WidgetName.inGroup(group) {
                guard WidgetName.isValid(name) else {
                    throw ConfigError("\(file): [\(group)] is not a valid widget name; use up to 32 letters, digits, - or _, such as [widget tech].")
                }
                config.widgetGroups[name] = keys
                continue
            }
            guard let allowed = schema[group] else {
                throw ConfigError("\(file): unknown group [\(group)]; use [source], [refresh], [notify], [bar] or [widget NAME].")
            }
            for (key, raw) in keys.sorted(by: { $0.key < $1.key }) {
                guard allowed[key] != nil else {
                    throw ConfigError("\(file): unknown key '\(key)' in [\(group)]; accepted keys are \(allowed.keys.sorted().joined(separator: ", ")).")
                }
                try config.apply(group: group, key: key, raw: raw, file: file)
            }
        }
        if config.feedsFrom != nil && groups["source"]?["feeds"] == nil { config.feeds = [] }
        if config.provider == .json && config.providerIsExplicit && config.jsonURL == nil {
            throw ConfigError("\(file): [source] provider = json needs [source] url; add the JSON API's URL.")
        }
        if let problem = config.sortProblem(group: "source") { throw ConfigError("\(file): \(problem)") }
        if let problem = config.syncProblem(group: "source") { throw ConfigError("\(file): \(problem)") }
        for (group, keys) in groups where keys["api-key-header"] != nil && keys["api-key-param"] != nil {
            throw ConfigError("\(file): [\(group)] sets both api-key-header and api-key-param; keep the one the API documents.")
        }
        // Every widget is checked now, so a typo in one fails the whole file at once.
        for name in config.widgetNames { _ = try config.widget(named: name, file: file) }
        return config
    }

    /// One key's value, validated, into this config (`group` is the key's schema group; `label`
    /// the group its messages name, `widget tech` for a widget's key).
    mutating func apply(group: String, key: String, raw: String, file: String, label: String? = nil) throws(ConfigError) {
        var config = self
        defer { self = config }
        let accepted = Config.schema[group]?[key] ?? ""
        let value = raw.trimmed()
        let groupName = label ?? group
        // GKeyFile has comments only on their own line: "x = 1  # note" keeps "# note".
        let comment = Config.inlineComment(in: value, key: key)
        func bad() -> ConfigError {
            let hint = comment.map { "; GKeyFile has no inline comments, so '\($0)' is part of the value: move the comment to its own line" } ?? ""
            return ConfigError("\(file): [\(groupName)] \(key) = '\(value)' is not valid\(hint); use \(accepted).")
        }
        if let comment {
            config.warnings.append("\(file): [\(groupName)] \(key) ends in '\(comment)', which looks like an inline comment but is part of the value (GKeyFile has none): move it to its own line.")
        }
        switch (group, key) {
        case ("source", "provider"):
            guard let p = Provider(rawValue: value.lowercased()) else { throw bad() }
            config.provider = p
            config.providerIsExplicit = true
        case ("source", "feeds"):
            let urls = Config.feedList(value).map { URL(string: String($0)) }
            guard !urls.isEmpty, urls.allSatisfy({ $0.map(URLPolicy.isOpenable) ?? false }) else { throw bad() }
            config.feeds = urls.compactMap { $0 }
        case ("source", "feed-intervals"):
            guard let intervals = Config.feedIntervals(value) else { throw bad() }
            config.feedIntervals = intervals
        case ("source", "feed-policies"):
            guard let policies = Config.feedPairs(value, { NotifyPolicy(rawValue: $0.lowercased()) }) else { throw bad() }
            config.feedPolicies = policies
        case ("source", "feeds-from"):
            guard let from = FeedsFrom.parse(value) else { throw bad() }
            config.feedsFrom = from
        case ("source", "url"):
            guard let url = URL(string: value), URLPolicy.isOpenable(url) else { throw bad() }
            config.jsonURL = url
        case ("source", "items-path"): config.jsonPaths.items = value
        case ("source", "title-path"):
            guard !value.isEmpty else { throw bad() }
            config.jsonPaths.title = value
        case ("source", "link-path"): config.jsonPaths.link = value.isEmpty ? nil : value
        case ("source", "link-template"):
            guard value.contains("{"), value.hasPrefix("http") else { throw bad() }
            config.jsonPaths.linkTemplate = value
        case ("source", "date-path"): config.jsonPaths.date = value.isEmpty ? nil : value
        case ("source", "id-path"): config.jsonPaths.id = value.isEmpty ? nil : value
        case ("source", "source-path"): config.jsonPaths.source = value.isEmpty ? nil : value
        case ("source", "image-path"): config.jsonPaths.image = value.isEmpty ? nil : value
        case ("source", "comments-path"): config.jsonPaths.comments = value.isEmpty ? nil : value
        case ("source", "error-path"): config.jsonPaths.error = value.isEmpty ? nil : value
        case ("source", "api-key-header"):
            guard Config.isHeaderName(value) else { throw bad() }
            config.jsonKey = .header(value)
        case ("source", "api-key-param"):
            guard !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else { throw bad() }
            config.jsonKey = .queryParameter(value)
        case ("source", "user-agent"):
            guard !value.isEmpty, value.count <= 200, value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { throw bad() }
            config.userAgent = value
        case ("source", "html-unescape"):
            guard let b = Config.parseBool(value) else { throw bad() }
            config.jsonPaths.htmlUnescape = b
        case ("source", "subreddits"):
            let names = value.split(whereSeparator: { $0 == ";" || $0 == "," || $0 == "+" || $0.isWhitespace })
                .map { $0.hasPrefix("r/") ? String($0.dropFirst(2)) : String($0) }
            guard names.allSatisfy({ !$0.isEmpty && $0.count <= 50 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } }) else { throw bad() }
            config.subreddits = names
        case ("source", "sort"):
            guard ["", "hot", "new", "top", "hottest", "newest"].contains(value.lowercased()) else { throw bad() }
            config.sort = value.lowercased()
        case ("source", "section"):
            guard value.count <= 60, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_/".contains($0)) }),
                  !value.contains("..") else { throw bad() }
            config.section = value.lowercased()
        case ("source", "base-url"):
            guard let url = URL(string: value), URLPolicy.isOpenable(url) else { throw bad() }
            config.baseURL = url
        case ("source", "country"):
            guard value.isEmpty || (value.count == 2 && value.allSatisfy(\.isLetter)) else { throw bad() }
            config.country = value.lowercased()
        case ("source", "language"):
            guard value.isEmpty || (value.count == 2 && value.allSatisfy(\.isLetter)) else { throw bad() }
            config.language = value.lowercased()
        case ("source", "category"): config.category = value
        case ("source", "query"): config.query = value
        case ("source", "page-size"):
            guard let n = Int(value), (1...100).contains(n) else { throw bad() }
            config.pageSize = n
            config.pageSizeIsExplicit = true
        case ("source", "api-key-file"):
            guard !value.isEmpty else { throw bad() }
            config.apiKeyFile = value
        case ("source", "timeout"):
            guard let d = Duration.parse(value), d >= 1, d <= 300 else { throw bad() }
            config.timeout = d
        case ("source", "username"), ("source", "password-command"), ("source", "password-file"):
            guard config.sync.apply(key: key, value: value) else { throw bad() }
        case ("refresh", "interval"):
            guard let d = Duration.parse(value), d >= 1, d <= 86400 else { throw bad() }
            config.interval = d
        case ("refresh", "daily-budget"):
            guard let n = Int(value), (1...86400).contains(n) else { throw bad() }
            config.dailyBudget = n
        case ("notify", "enabled"):
            guard let b = Config.parseBool(value) else { throw bad() }
            config.notifyEnabled = b
        case ("notify", "images"):
            guard let b = Config.parseBool(value) else { throw bad() }
            config.notifyImages = b
        case ("notify", "keywords"): config.keywords = Config.wordList(value)
        case ("notify", "mute-words"): config.muteWords = Config.wordList(value)
        case ("notify", "policy"):
            guard let policy = NotifyPolicy(rawValue: value.lowercased()) else { throw bad() }
            config.notifyPolicy = policy
        case ("notify", "max-per-hour"):
            guard let n = Int(value), (1...500).contains(n) else { throw bad() }
            config.maxPerHour = n
        case ("notify", "quiet-hours"):
            guard value.isEmpty || QuietHours(value) != nil else { throw bad() }
            config.quietHours = QuietHours(value)
        case ("notify", "max-per-refresh"):
            guard let n = Int(value), (1...50).contains(n) else { throw bad() }
            config.maxPerRefresh = n
        case ("bar", "rotate"):
            guard let d = Duration.parse(value), d == 0 || d >= 1 else { throw bad() }
            config.rotate = d
        case ("bar", "launcher"):
            guard !value.isEmpty else { throw bad() }
            if let problem = ShellWords.problem(in: value) {
                throw ConfigError("\(file): [bar] launcher = '\(value)' \(problem); quote it as a shell would, such as rofi -dmenu -p 'Top headlines'.")
            }
            config.launcher = value
        case ("bar", "max-length"):
            guard let n = Int(value), (10...500).contains(n) else { throw bad() }
            config.maxLength = n
        default:
            throw bad()
        }
    }

    /// The environment variable of `provider`'s key: its own, or for `provider = json` the one
    /// `api-key-header` or `api-key-param` asks for; nil when it takes no key.
    public func keyVariable(of provider: Provider) -> String? {
        provider.keyVariable ?? (provider == .json && jsonKey != nil ? Provider.jsonKeyVariable : nil)
    }

    /// The sentence for a `sort` the provider does not have (Reddit's hot, new and top; Lobsters'
    /// hottest and newest), nil when it has it or takes no sort.
    func sortProblem(group: String) -> String? {
        let orders: [String]
        switch provider {
        case .reddit: orders = ["hot", "new", "top"]
        case .lobsters: orders = ["hottest", "newest"]
        default: return nil
        }
        guard !sort.isEmpty, !orders.contains(sort) else { return nil }
        return "[\(group)] sort = \(sort) is not an order \(provider.displayName) has; use \(orders.joined(separator: ", "))."
    }

    /// The provider to use: the file's, else APITube or NewsAPI when their key is set in the
    /// environment, else the keyless feeds.
    public func resolvedProvider(environment: [String: String]) -> Provider {
        if providerIsExplicit { return provider }
        for keyed in [Provider.apitube, .newsapi] where !(environment[keyed.keyVariable!] ?? "").isEmpty { return keyed }
        if apiKeyFile != nil { return provider }
        return .feeds
    }

    /// The part of a value from " #" or " ;" on, when it looks like an inline comment. `;` is
    /// skipped in the list keys (feeds, keywords, mute-words), where it separates items.
    static func inlineComment(in value: String, key: String) -> String? {
        if value.hasPrefix("#") { return value }
        let lists: Set<String> = ["feeds", "feed-intervals", "feed-policies", "keywords", "mute-words"]
        let marks: [String] = lists.contains(key) ? [" #", "\t#"] : [" #", "\t#", " ;", "\t;"]
        let found = marks.compactMap { value.rangeOfText($0) }.min { $0.lowerBound < $1.lowerBound }
        return found.map { String(value[value.index(after: $0.lowerBound)...]) }
    }

    /// `feeds`: URLs separated by blanks, `;` or `,`. A `;` or `,` separates only where another
    /// URL (`scheme://`) starts after it, or at the end: inside a URL it is part of it (a path
    /// parameter `;jsessionid=`, a query's `a,b`), which a server may read differently encoded.
    public static func feedList(_ value: String) -> [Substring] {
        var items: [Substring] = []
        func add(_ item: Substring) {
            let kept = item.drop { $0 == ";" || $0 == "," }
            var end = kept.endIndex
            while end > kept.startIndex, [";", ","].contains(kept[kept.index(before: end)]) { end = kept.index(before: end) }
            if end > kept.startIndex { items.append(kept[..<end]) }
        }
        for token in value.split(whereSeparator: \.isWhitespace) {
            var start = token.startIndex
            var i = token.startIndex
            while let mark = token[i...].firstIndex(where: { $0 == ";" || $0 == "," }) {
                i = token.index(after: mark)
                guard startsWithScheme(token[i...]) else { continue }
                add(token[start..<mark])
                start = i
            }
            add(token[start...])
        }
        return items
    }

    /// `feed-intervals`: `URL DURATION` pairs, split as `feeds` is; nil when an item is not a feed
    /// URL followed by a duration from one second to a day, or a URL comes twice.
    static func feedIntervals(_ value: String) -> [String: TimeInterval]? {
        feedPairs(value) { text in Duration.parse(text).flatMap { $0 >= 1 && $0 <= 86400 ? $0 : nil } }
    }

    /// `URL VALUE` pairs (`feed-intervals`, `feed-policies`), split as `feeds` is; nil when an
    /// item is not a feed URL followed by a value `parse` accepts, or a URL comes twice.
    static func feedPairs<Value>(_ value: String, _ parse: (String) -> Value?) -> [String: Value]? {
        let items = feedList(value)
        guard items.count % 2 == 0 else { return nil }
        var pairs: [String: Value] = [:]
        for pair in stride(from: 0, to: items.count, by: 2) {
            guard let url = URL(string: String(items[pair])), URLPolicy.isOpenable(url),
                  let parsed = parse(String(items[pair + 1])),
                  pairs.updateValue(parsed, forKey: url.absoluteString) == nil else { return nil }
        }
        return pairs
    }

    /// `http://`, `https://` or any other `scheme://` (RFC 3986 scheme characters).
    private static func startsWithScheme(_ text: Substring) -> Bool {
        guard let colon = text.prefix(32).firstIndex(of: ":"), colon > text.startIndex, text[colon...].hasPrefix("://"),
              text[..<colon].first?.isLetter == true else { return false }
        return text[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// `word; "a phrase", Zürich`: items split at `;` or `,` outside double quotes, trimmed,
    /// surrounding quotes (double or single) dropped, empty items skipped.
    static func wordList(_ value: String) -> [String] {
        var items: [String] = []
        var current = ""
        var quoted = false
        for ch in value + ";" {
            if ch == "\"" { quoted.toggle(); current.append(ch); continue }
            guard !quoted, ch == ";" || ch == "," else { current.append(ch); continue }
            var item = current.trimmed()
            current = ""
            for quote: Character in ["\"", "'"] where item.count >= 2 && item.first == quote && item.last == quote {
                item = String(item.dropFirst().dropLast()).trimmed()
            }
            if !item.isEmpty { items.append(item) }
        }
        return items
    }

    /// An HTTP header name (RFC 9110 token characters), not one the transport sets itself.
    static func isHeaderName(_ s: String) -> Bool {
        let token = Set("!#$%&'*+-.^_`|~".unicodeScalars)
        let reserved: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "user-agent", "accept-encoding"]
        return !s.isEmpty && s.count <= 64 && !reserved.contains(s.lowercased())
            && s.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || token.contains($0) }
    }

    static func parseBool(_ s: String) -> Bool? {
        switch s.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: return nil
        }
    }
}

/// Durations as people write them in the config: `90s`, `30m`, `1h`, `1h30m`, or bare seconds.
public enum Duration {
    public static func parse(_ text: String) -> TimeInterval? {
        let s = text.trimmed().lowercased()
        guard !s.isEmpty else { return nil }
        if let plain = Double(s) { return plain >= 0 && plain.isFinite ? plain : nil }
        var total: Double = 0
        var number = ""
        var sawUnit = false
        for ch in s {
            if ch.isNumber || ch == "." { number.append(ch); continue }
            guard let n = Double(number) else { return nil }
            switch ch {
            case "s": total += n
            case "m": total += n * 60
            case "h": total += n * 3600
            case "d": total += n * 86400
            default: return nil
            }
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit else { return nil }
        return total
    }

    /// The short form used in messages: "30m", "1h30m", "45s".
    public static func format(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded())
        if s == 0 { return "0s" }
        var out = ""
        if s >= 3600 { out += "\(s / 3600)h" }
        if s % 3600 >= 60 { out += "\(s % 3600 / 60)m" }
        if s % 60 != 0 { out += "\(s % 60)s" }
        return out
    }
}
