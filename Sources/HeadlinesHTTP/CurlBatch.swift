import CCurl
import FoundationEssentials
import HeadlinesCore
import HeadlinesSources

/// One `getAll`: a multi handle, the requests waiting for a slot, the transfers in flight and
/// the answers so far. Lives on one thread for the length of `run()`; the multi handle and any
/// connection it opened are gone when it returns.
final class CurlBatch {
    private struct Job {
        var request: HTTPRequest
        /// Redirects followed so far.
        var hops = 0
        /// Set when the first hop starts; every later hop shares it, so redirects cannot stretch
        /// the request past one timeout.
        var deadline: ContinuousClock.Instant?
    }

    private let multi: UnsafeMutableRawPointer
    private let limits: TransportLimits
    private let userAgent: String
    private let tally: RequestTally?
    private var jobs: [Job]
    private var results: [Result<HTTPResponse, NewsError>?]
    private var waiting: [Int]
    private var active: [UnsafeMutableRawPointer: (job: Int, transfer: CurlTransfer)] = [:]

    init?(_ requests: [HTTPRequest], limits: TransportLimits, userAgent: String, tally: RequestTally?) {
        guard let multi = curl_multi_init() else { return nil }
        self.multi = multi
        self.limits = limits
        self.userAgent = userAgent
        self.tally = tally
        jobs = requests.map { Job(request: $0) }
        results = Array(repeating: nil, count: requests.count)
        waiting = Array(requests.indices)
    }

    deinit {
        for (handle, _) in active { curl_multi_remove_handle(multi, handle) }
        active = [:]
        curl_multi_cleanup(multi)
    }

    func run() -> [Result<HTTPResponse, NewsError>] {
        let slots = max(1, limits.maxConcurrent)
        while !waiting.isEmpty || !active.isEmpty {
            while active.count < slots, !waiting.isEmpty { start(waiting.removeFirst()) }
            guard !active.isEmpty else { continue }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            if finishDone() > 0 { continue }
            // Sleeps until a socket is ready or libcurl's next timeout (its timers for the
            // request timeouts shorten the 1 s): no busy polling.
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        return results.map { $0 ?? .failure(.unreachable(detail: "no answer")) }
    }

    /// Starts the current hop of job `index`, or records why it cannot start.
    private func start(_ index: Int) {
        let request = jobs[index].request
        do { try request.checkKeyIsSafe() } catch {
            results[index] = .failure(error)
            return
        }
        let now = ContinuousClock.now
        let deadline = jobs[index].deadline ?? now.advanced(by: .milliseconds(Int(limits.timeout * 1000)))
        jobs[index].deadline = deadline
        let left = now.duration(to: deadline)
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        guard seconds > 0 else {
            results[index] = .failure(.timedOut(seconds: limits.timeout))
            return
        }
        guard let transfer = CurlTransfer(request: request, limits: limits, userAgent: userAgent, remaining: seconds),
              curl_multi_add_handle(multi, transfer.handle) == CURLM_OK else {
            results[index] = .failure(.unreachable(detail: "libcurl could not start the request"))
            return
        }
        active[transfer.handle] = (index, transfer)
        if request.carriesKey { tally?.countKeyedRequest() }
    }

    /// Handles every finished transfer; returns how many there were.
    private func finishDone() -> Int {
        var finished = 0
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                  let (index, transfer) = active.removeValue(forKey: handle) else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(multi, handle)
            finished += 1
            finish(index, transfer, code)
        }
        return finished
    }

    private func finish(_ index: Int, _ transfer: CurlTransfer, _ code: CURLcode) {
        guard code == CURLE_OK else {
            results[index] = .failure(CurlErrors.newsError(code, transfer: transfer, limits: limits))
            return
        }
        let status = transfer.status
        if [301, 302, 303, 307, 308].contains(status), let location = transfer.redirectURL {
            guard let url = URL(string: location) else {
                results[index] = .failure(.unreachable(detail: "redirected to an unusable URL"))
                return
            }
            switch RedirectPolicy.next(after: jobs[index].request, to: url, hop: jobs[index].hops + 1) {
            case let .success(next):
                jobs[index].request = next
                jobs[index].hops += 1
                start(index)
            case let .failure(error):
                results[index] = .failure(error)
            }
            return
        }
        // A 304 answers a conditional request; to an unconditional one it leaves nothing to show
        // and would read as "unchanged" to a caller that keeps no copy.
        if status == 304, !jobs[index].request.headers.keys.contains(where: { ["if-none-match", "if-modified-since"].contains($0.lowercased()) }) {
            results[index] = .failure(.malformedResponse(detail: "304 Not Modified to a request that had no cache validators"))
            return
        }
        results[index] = .success(HTTPResponse(status: status, headers: transfer.headers, body: transfer.body,
                                               requestCount: jobs[index].hops + 1))
    }
}
