import FoundationEssentials
import HeadlinesCore

/// What the Miniflux and Nextcloud News providers share. Both APIs take the credential itself
/// with every request (an API token, or a user name and password through HTTP Basic), so there
/// is no sign-in to make or renew; both answer JSON, with an error's reason in one field.
struct PasswordAPI: Sendable {
    /// How the credential travels: Miniflux's `X-Auth-Token`, or HTTP Basic with the user name.
    enum Authorization: Sendable {
        case tokenHeader(String)
        case basic(username: String)
    }

    let session: SyncSession
    let transport: HTTPTransport
    let authorization: Authorization
    /// Where an error answer keeps its reason: `error_message` (Miniflux), `message` (Nextcloud).
    let errorField: String

    /// Sends the request `build` makes for a credential, and returns the answer when it is a 2xx.
    /// The credential is the token the host kept, else the password this process resolved; when
    /// the token is refused (401) the password is tried once, never more. Every error leaves
    /// with the credential redacted from the server's words.
    func send(now: Date, _ build: (_ headers: [String: String]) -> HTTPRequest) async throws(NewsError) -> HTTPResponse {
        guard let first = session.token ?? session.password, !first.isEmpty else {
            throw .missingCredential(detail: session.passwordProblem ?? "none was found")
        }
        var credential = first
        do throws(NewsError) {
            var response = try await attempt(build, credential: credential)
            if response.status == 401, session.token != nil {
                session.dropToken()
                if let password = session.password, !password.isEmpty, password != credential, session.beginSignIn() {
                    credential = password
                    response = try await attempt(build, credential: password)
                }
            }
            guard (200...299).contains(response.status) else {
                let reason = ProviderSupport.json(response)?.value(at: errorField)?.text
                throw ProviderSupport.error(status: response.status, code: nil, message: reason, response: response, now: now)
            }
            return response
        } catch {
            throw error.redacting(credential).redacting(first)
        }
    }

    /// The unread list: one GET of `url`, the items at `listKey` as headlines newest first, each
    /// id once, cut to `pageSize` (a server may ignore the size it was sent).
    func unread(_ url: URL, listKey: String, pageSize: Int, now: Date,
                headline: (JSONValue, Date) -> Headline?) async throws(NewsError) -> [Headline] {
        let response = try await send(now: now) { HTTPRequest(url: url, headers: $0, carriesKey: true) }
        let items = try Self.list(try Self.json(response), at: listKey, status: response.status)
        return ProviderSupport.cut(ProviderSupport.newestFirstUnique(items.compactMap { headline($0, now) }), toPageSize: pageSize)
    }

    /// Marks `ids` read with one `method` request of the JSON `body` makes from the service's ids.
    /// An id that is not one (service ids are integers) cannot be unread there: it counts as
    /// taken, and with no other id nothing is sent. The services skip ids they do not have, so
    /// every id is taken once the request is.
    func mark(_ ids: [String], url: URL, method: String, now: Date, body: ([Int64]) -> Data) async throws(NewsError) -> [String] {
        var seen = Set<Int64>()
        let numeric = ids.compactMap { Int64($0) }.filter { seen.insert($0).inserted }
        guard !numeric.isEmpty else { return ids }
        let data = body(numeric)
        _ = try await send(now: now) { headers in
            HTTPRequest(url: url, method: method, body: data, headers: headers.merging(["Content-Type": "application/json"]) { _, new in new })
        }
        return ids
    }

    private func attempt(_ build: ([String: String]) -> HTTPRequest, credential: String) async throws(NewsError) -> HTTPResponse {
        try await SyncExchange.send(build(headers(credential)), through: transport)
    }

    private func headers(_ credential: String) -> [String: String] {
        var headers = ["Accept": "application/json"]
        switch authorization {
        case let .tokenHeader(name):
            headers[name] = credential
        case let .basic(username):
            headers["Authorization"] = "Basic " + Data("\(username):\(credential)".utf8).base64EncodedString()
        }
        return headers
    }

    /// The JSON of a 2xx answer, or the error for a body that is not the API's: a web page (a
    /// login page, or `base-url` pointing at the site rather than its API) or cut-off JSON. JSON
    /// comes first: a proxy may label the API's answer text/html.
    static func json(_ response: HTTPResponse) throws(NewsError) -> JSONValue {
        if let root = ProviderSupport.json(response) { return root }
        if ProviderSupport.looksLikeHTML(response.body, contentType: response.header("Content-Type")) {
            throw .malformedResponse(detail: "an HTML page, HTTP \(response.status)")
        }
        throw .malformedResponse(detail: ProviderSupport.describeUndecodable(response.body, status: response.status))
    }

    /// The list at `key` of an answer; null is an empty list too (Go writes a nil slice so).
    static func list(_ root: JSONValue, at key: String, status: Int) throws(NewsError) -> [JSONValue] {
        switch root.value(at: key) {
        case let .array(list)?: return list
        case .null?: return []
        default: throw .malformedResponse(detail: "no '\(key)' list, HTTP \(status)")
        }
    }

    /// What every item must have to be a headline: its id (a JSON integer, or its digits in a
    /// string), which is what a read mark sends back; a title, as plain text; an http(s) link.
    /// And its date at `dateKey`, never later than now.
    static func essentials(_ item: JSONValue, dateKey: String, now: Date) -> (id: String, title: String, link: URL, published: Date)? {
        let id: String
        switch item.value(at: "id") {
        case let .integer(i)?: id = String(i)
        case let .string(s)? where Int64(s) != nil: id = String(Int64(s)!)
        default: return nil
        }
        guard let title = title(item.value(at: "title")?.text), let link = ProviderSupport.link(item.value(at: "url")?.text) else { return nil }
        let date = item.value(at: dateKey).flatMap(JSONAPIProvider.date(from:))
        return (id, title, link, ProviderSupport.published(date, fetchedAt: now))
    }

    /// `{"KEY":[1,2,3]...}`: the ids as a JSON array after `key`, then `rest` (already JSON).
    static func body(ids: [Int64], key: String, rest: String = "") -> Data {
        Data("{\"\(key)\":[\(ids.map(String.init).joined(separator: ","))]\(rest)}".utf8)
    }

    /// A title as every provider shows one: markup reduced to text, entities decoded, cut.
    static func title(_ raw: String?) -> String? {
        ProviderSupport.title(FeedText.plain(raw))
    }
}
