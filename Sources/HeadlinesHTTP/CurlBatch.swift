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
        /// True while every redirect so far was permanent (301, 308): then the answer says where
        /// the requested URL now lives.
        var movedForGood = true
        /// Set when the first hop starts; every later hop shares it, so redirects cannot stretch
        /// the request past one timeout.
        var deadline: ContinuousClock.Instant?
    }

    private let multi: UnsafeMutableRawPointer
    private let limits: TransportLimits
    private let userAgent: String
    private let tally: RequestTally?
    /// When the whole batch ends, whatever is still waiting or in flight: nil, each request has
    /// its own `limits.timeout` from when it starts.
    private let batchDeadline: ContinuousClock.Instant?
    private let refused: ConnectRule?
    private var jobs: [Job]
    /// Requests answered so far (each is handed to `run`'s `each` once).
    private var answered: [Bool]
    private var waiting: [Int]
    private var active: [UnsafeMutableRawPointer: (job: Int, transfer: CurlTransfer)] = [:]
    private var each: (Int, Result<HTTPResponse, NewsError>) -> Void = { _, _ in }

    init?(_ requests: [HTTPRequest], limits: TransportLimits, userAgent: String, tally: RequestTally?,
          until batchDeadline: ContinuousClock.Instant? = nil, refusing refused: ConnectRule? = nil) {
        guard let multi = curl_multi_init() else { return nil }
        self.multi = multi
        self.limits = limits
        self.userAgent = userAgent
        self.tally = tally
        self.batchDeadline = batchDeadline
        self.refused = refused
        jobs = requests.map { Job(request: $0) }
        answered = Array(repeating: false, count: requests.count)
        waiting = Array(requests.indices)
    }

    deinit {
        for (handle, _) in active { curl_multi_remove_handle(multi, handle) }
        active = [:]
        curl_multi_cleanup(multi)
    }

    /// Every answer, in the order of the requests.
    func run() -> [Result<HTTPResponse, NewsError>] {
        var results: [Result<HTTPResponse, NewsError>?] = Array(repeating: nil, count: jobs.count)
        run { results[$0] = $1 }
        return results.map { $0 ?? .failure(.unreachable(detail: "no answer")) }
    }

    /// Hands each answer to `each` (request index, answer) as soon as it is complete, so a
    /// caller can use it and let it go while the others are still on the way.
    func run(each: @escaping (Int, Result<HTTPResponse, NewsError>) -> Void) {
        self.each = each
        defer { self.each = { _, _ in } }
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
        for index in answered.indices where !answered[index] { answer(index, .failure(.unreachable(detail: "no answer"))) }
    }

    private func answer(_ index: Int, _ result: Result<HTTPResponse, NewsError>) {
        guard !answered[index] else { return }
        answered[index] = true
        each(index, result)
    }

    /// Starts the current hop of job `index`, or answers why it cannot start.
    private func start(_ index: Int) {
        let request = jobs[index].request
        do { try request.checkKeyIsSafe() } catch {
            answer(index, .failure(error))
            return
        }
        if let refused, refused.refusesHost(request.url.host ?? "") {
            answer(index, .failure(.localNetwork))
            return
        }
        let now = ContinuousClock.now
        var deadline = jobs[index].deadline ?? now.advanced(by: .milliseconds(Int(limits.timeout * 1000)))
        if let batchDeadline { deadline = min(deadline, batchDeadline) }
        jobs[index].deadline = deadline
        let left = now.duration(to: deadline)
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        guard seconds > 0 else {
            answer(index, .failure(.timedOut(seconds: limits.timeout)))
            return
        }
        guard let transfer = CurlTransfer(request: request, limits: limits, userAgent: userAgent, remaining: seconds,
                                          refusing: refused),
              curl_multi_add_handle(multi, transfer.handle) == CURLM_OK else {
            answer(index, .failure(.unreachable(detail: "libcurl could not start the request")))
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
            answer(index, .failure(CurlErrors.newsError(code, transfer: transfer, limits: limits)))
            return
        }
        let status = transfer.status
        // A request that writes is answered with its redirect, never sent on (see HTTPRequest).
        if [301, 302, 303, 307, 308].contains(status), jobs[index].request.method == "GET", let location = transfer.redirectURL {
            guard let url = URL(string: location) else {
                answer(index, .failure(.unreachable(detail: "redirected to an unusable URL")))
                return
            }
            switch RedirectPolicy.next(after: jobs[index].request, to: url, hop: jobs[index].hops + 1) {
            case let .success(next):
                jobs[index].request = next
                jobs[index].hops += 1
                // 302, 303 and 307 are temporary: the URL asked for stays the one to ask next time.
                if status != 301 && status != 308 { jobs[index].movedForGood = false }
                start(index)
            case let .failure(error):
                answer(index, .failure(error))
            }
            return
        }
        // A 304 answers a conditional request; to an unconditional one it leaves nothing to show
        // and would read as "unchanged" to a caller that keeps no copy.
        if status == 304, !jobs[index].request.headers.keys.contains(where: { ["if-none-match", "if-modified-since"].contains($0.lowercased()) }) {
            answer(index, .failure(.malformedResponse(detail: "304 Not Modified to a request that had no cache validators")))
            return
        }
        var response = HTTPResponse(status: status, headers: transfer.headers, body: transfer.body,
                                    requestCount: jobs[index].hops + 1)
        // Whatever the final status: the move was the redirects' statement, the caller decides
        // what to do with it.
        if jobs[index].hops > 0, jobs[index].movedForGood { response.permanentLocation = jobs[index].request.url }
        answer(index, .success(response))
    }
}
