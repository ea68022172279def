import FoundationEssentials
import HeadlinesCore

/// The Fever API, which FreshRSS, Miniflux and Tiny Tiny RSS (a plugin) speak. `base-url` is the
/// endpoint itself (FreshRSS: `.../api/fever.php`, Miniflux: `.../fever/`). Every request is a
/// `POST` of `api_key` to `BASE?api&...`; the key is the MD5 of `username:password`, computed
/// before the provider runs (`SyncCredentials.feverKey`, in the GLib layer) and handed over as
/// the session's token. There is no sign-in to renew: `auth: 0` means the key was refused.
///
/// Unread items, exactly, in as few requests as the server allows. Fever has no "unread items"
/// query: `items` pages through everything, read or not, 50 at a time. So the first request asks
/// for two things at once, `unread_item_ids` (every unread id) and `items&max_id=` the largest id
/// there can be (the newest 50 items). FreshRSS and Tiny Tiny RSS answer both, and when the
/// newest `pageSize` unread ids are among those 50 items, which is the usual case, that one
/// request is all. Unread items older than the newest 50, or a server that answers one argument
/// per request (Miniflux answers `unread_item_ids` alone), cost one more request,
/// `items&with_ids=` for the missing ids (50 at most per request, as the API allows). Asking for
/// `unread_item_ids` first and `with_ids` second would be exact too, but always two requests.
///
/// Feed titles are not asked for: an item names its feed by number only, and `feeds` lists every
/// subscription, at every reload (each reload is a new process with nothing kept), and Miniflux
/// would answer `feeds` in place of the items. The source shown is the link's host.
public struct FeverProvider: SyncServiceProvider {
    public let connection: SyncConnection
    public init(connection: SyncConnection) { self.connection = connection }

    public var keyVariable: String? { nil }

    /// The largest item id there can be (a 64-bit integer): `max_id` then means "the newest".
    /// Not 0, which Miniflux reads as "the newest" but FreshRSS as "before item 0", nothing.
    static let newestID = String(Int64.max)
    /// `with_ids` takes at most 50 ids.
    static let idsPerRequest = 50

    public func fetch(now: Date) async throws -> [Headline] {
        let key = try apiKey()
        let first = try await call([URLQueryItem(name: "items", value: nil), URLQueryItem(name: "max_id", value: Self.newestID),
                                    URLQueryItem(name: "unread_item_ids", value: nil)], key: key, now: now)
        guard let list = first.value(at: "unread_item_ids")?.text else {
            throw NewsError.malformedResponse(detail: "no unread_item_ids in the answer")
        }
        let wanted = Self.newest(Self.ids(in: list), count: pageSize)
        let wantedSet = Set(wanted)
        var answered = Self.items(first, now: now).filter { wantedSet.contains($0.id) }
        let missing = wanted.filter { id in !answered.contains { $0.id == id } }
        for start in stride(from: 0, to: missing.count, by: Self.idsPerRequest) {
            let chunk = missing[start..<min(start + Self.idsPerRequest, missing.count)]
            let more = try await call([URLQueryItem(name: "items", value: nil), URLQueryItem(name: "with_ids", value: chunk.joined(separator: ","))],
                                      key: key, now: now)
            answered += Self.items(more, now: now).filter { wantedSet.contains($0.id) }
        }
        let headlines = answered.compactMap(\.headline)
        return ProviderSupport.cut(ProviderSupport.newestFirstUnique(headlines), toPageSize: pageSize)
    }

    /// `mark=item&as=read&id=ID`, one request per item: the API marks one item at a time.
    public func markRead(_ ids: [String], now: Date) async throws -> [String] {
        let key = try apiKey()
        var taken: [String] = []
        var sent = false
        for id in SyncExchange.unique(ids) {
            // Fever's ids are numbers: anything else names no item there, so it cannot be unread.
            guard Self.isItemID(id) else { taken.append(id); continue }
            do {
                _ = try await call([URLQueryItem(name: "mark", value: "item"), URLQueryItem(name: "as", value: "read"),
                                    URLQueryItem(name: "id", value: id)], key: key, now: now)
            } catch {
                // What was taken stays taken; the rest stays queued for the next reload.
                if !sent { throw error }
                return taken
            }
            sent = true
            taken.append(id)
        }
        return taken
    }

    private func apiKey() throws(NewsError) -> String {
        guard let key = session.token, !key.isEmpty else {
            throw .missingCredential(detail: session.passwordProblem ?? "no password was found")
        }
        return key
    }

    /// One API call: `arguments` in the query after `api`, the key in the body (never in the URL).
    func call(_ arguments: [URLQueryItem], key: String, now: Date) async throws(NewsError) -> JSONValue {
        let url = ProviderSupport.url(account.baseURL, path: "", items: [URLQueryItem(name: "api", value: nil)] + arguments)
        let request = HTTPRequest(url: url, method: "POST", body: SyncExchange.form([("api_key", key)]), headers: SyncExchange.formHeaders)
        let response = try await SyncExchange.send(request, through: transport)
        // A refused key: `auth: 0` (FreshRSS answers it with 200, Miniflux with 401).
        let root = response.status == 401 ? JSONValue.object(["auth": .integer(0)]) : try SyncExchange.json(response, now: now)
        switch root.value(at: "auth") {
        case .integer(1)?, .bool(true)?, .string("1")?: return root
        case .integer(0)?, .bool(false)?, .string("0")?:
            // A key the host kept from an earlier reload is forgotten, so that the next reload
            // derives it from the password again.
            session.dropToken()
            throw .invalidKey(code: nil, message: nil)
        default: throw .malformedResponse(detail: "JSON without Fever's auth member")
        }
    }

    /// An item of an `items` answer, with its headline when it has a title and a usable link.
    struct Item {
        var id: String
        var headline: Headline?
    }

    static func items(_ root: JSONValue, now: Date) -> [Item] {
        guard case let .array(items)? = root.value(at: "items") else { return [] }
        return items.compactMap { item in
            guard let id = item.value(at: "id")?.text, isItemID(id) else { return nil }
            let headline = SyncExchange.headline(id: id, title: item.value(at: "title")?.text, link: ProviderSupport.link(item.value(at: "url")?.text),
                                                 source: nil, published: item.value(at: "created_on_time").flatMap(JSONAPIProvider.date(from:)),
                                                 summary: item.value(at: "html")?.text, now: now)
            return Item(id: id, headline: headline)
        }
    }

    /// The ids of a comma-separated list, repeats and anything that is not an id left out.
    static func ids(in list: String) -> [String] {
        SyncExchange.unique(list.split(separator: ",").map { $0.trimmed() }.filter(isItemID))
    }

    /// The `count` largest ids: the items the service took in last.
    static func newest(_ ids: [String], count: Int) -> [String] {
        Array(ids.sorted { UInt64($0)! > UInt64($1)! }.prefix(max(1, count)))
    }

    static func isItemID(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 19 && s.utf8.allSatisfy { (0x30...0x39).contains($0) } && UInt64(s) != nil
    }
}
