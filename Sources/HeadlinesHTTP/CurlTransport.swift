import CCurl
import FoundationEssentials
import HeadlinesCore
import HeadlinesSources

/// The real transport: libcurl's multi interface, every request of a batch in flight at once (up
/// to `limits.maxConcurrent`) from the calling thread, which waits in `curl_multi_poll` and so
/// costs no CPU while a server keeps it waiting.
///
/// The async functions never suspend: they block the calling thread (a cooperative-pool thread,
/// never the GLib loop's) for at most the timeout, rather than starting threads, Dispatch or
/// continuations, each of which would wake the process once a second forever. Each batch has its
/// own multi and easy handles, so no connection outlives a reload.
public struct CurlTransport: HTTPTransport {
    public var limits: TransportLimits
    public var userAgent: String
    /// Counts every key-bearing request sent, redirect hops included, for the budget.
    public var tally: RequestTally?
    /// Where no request may go (every hop's host, every connection's address); nil: anywhere.
    var refused: ConnectRule?

    /// `curl_global_init`, exactly once per process, before the first handle.
    private static let initialised: Bool = headlines_curl_global_init_default() == CURLE_OK

    /// What every request says it is: the program, its version and where to read about it, so a
    /// publisher who finds it in a log knows what polls and whom to ask. The address is a
    /// placeholder until the project has a public home, and is to change in this one place.
    public static let defaultUserAgent = "headlines/\(HeadlinesVersion.string) (+https://a-seed-72e618ae.example/headlines)"

    public init(limits: TransportLimits = TransportLimits(), userAgent: String = CurlTransport.defaultUserAgent,
                tally: RequestTally? = nil) {
        self.limits = limits
        self.userAgent = userAgent
        self.tally = tally
    }

    /// This transport kept off this machine and its local network (`ConnectRule.localNetwork`):
    /// for what a page from elsewhere leads to, which may name a router's page or a local port.
    public func outsideOnly() -> CurlTransport {
        var transport = self
        transport.refused = .localNetwork()
        return transport
    }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        try fetch([request])[0].get()
    }

    public func getAll(_ requests: [HTTPRequest]) async -> [Result<HTTPResponse, NewsError>] {
        fetch(requests)
    }

    /// The whole batch, synchronously.
    func fetch(_ requests: [HTTPRequest]) -> [Result<HTTPResponse, NewsError>] {
        guard !requests.isEmpty else { return [] }
        guard Self.initialised, let batch = CurlBatch(requests, limits: limits, userAgent: userAgent, tally: tally, refusing: refused) else {
            return requests.map { _ in .failure(.unreachable(detail: "libcurl could not start")) }
        }
        return batch.run()
    }

    /// The whole batch, synchronously, each answer handed to `each` as soon as it is complete;
    /// everything ends by `deadline`, and no connection opens to an address `refused` covers.
    func fetch(_ requests: [HTTPRequest], until deadline: ContinuousClock.Instant, refusing refused: ConnectRule?,
               each: @escaping (Int, Result<HTTPResponse, NewsError>) -> Void) {
        guard !requests.isEmpty else { return }
        guard Self.initialised, let batch = CurlBatch(requests, limits: limits, userAgent: userAgent, tally: tally,
                                                      until: deadline, refusing: refused) else {
            for index in requests.indices { each(index, .failure(.unreachable(detail: "libcurl could not start"))) }
            return
        }
        batch.run(each: each)
    }
}
