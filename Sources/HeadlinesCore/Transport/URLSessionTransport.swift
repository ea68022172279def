import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real transport: URLSession (libcurl underneath on Linux), one session per request so that a
/// delegate can count bytes as they arrive and cancel a body that passes the cap.
public struct URLSessionTransport: HTTPTransport {
    public var limits: TransportLimits
    public var userAgent: String

    public init(limits: TransportLimits = TransportLimits(), userAgent: String = "headlines/\(HeadlinesVersion.string)") {
        self.limits = limits
        self.userAgent = userAgent
    }

    public func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.checkKeyIsSafe()
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: limits.timeout)
        urlRequest.httpMethod = "GET"
        urlRequest.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        urlRequest.setValue(limits.acceptGzip ? "gzip" : "identity", forHTTPHeaderField: "Accept-Encoding")
        // Reloads are minutes apart: a kept-alive connection would only keep libcurl's connection
        // cache, and its once-a-second maintenance timer, awake while the host idles.
        urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }

        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = limits.timeout
        configuration.timeoutIntervalForResource = limits.timeout
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let collector = BodyCollector(limit: limits.maxResponseBytes)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, Error>) in
                collector.start(session.dataTask(with: urlRequest), continuation: continuation, timeout: limits.timeout)
            }
        } onCancel: {
            collector.cancel()
        }
    }
}

/// Accumulates one response body on URLSession's delegate queue. Lock-protected because the
/// delegate queue and the caller's cancellation run on different threads.
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var body = Data()
    private var response: HTTPURLResponse?
    private var continuation: CheckedContinuation<HTTPResponse, Error>?
    private var task: URLSessionDataTask?
    private var overflowed = false
    private var timeout: Double = 0
    private var timedOut = false

    init(limit: Int) { self.limit = limit }

    func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<HTTPResponse, Error>, timeout: Double) {
        lock.lock()
        self.task = task
        self.continuation = continuation
        self.timeout = timeout
        lock.unlock()
        // URLSession on Linux does not enforce timeoutIntervalForResource, and the request timeout
        // restarts with every chunk, so a trickling server could hold a request forever: cap the
        // whole exchange here.
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
            guard let self else { return }
            self.lock.lock()
            let running = self.continuation != nil
            if running { self.timedOut = true }
            self.lock.unlock()
            if running { task.cancel() }
        }
        task.resume()
    }

    func cancel() {
        lock.lock(); let task = self.task; lock.unlock()
        task?.cancel()
    }

    private func finish(_ result: Result<HTTPResponse, Error>) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(with: result)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        lock.lock(); self.response = http; lock.unlock()
        if let length = http?.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init), length > limit {
            lock.lock(); overflowed = true; lock.unlock()
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        body.append(data)
        let over = body.count > limit
        if over { overflowed = true; body = Data() }
        lock.unlock()
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let overflowed = self.overflowed
        let response = self.response
        let body = self.body
        let timeout = self.timeout
        let timedOut = self.timedOut
        lock.unlock()
        if timedOut { return finish(.failure(NewsError.timedOut(seconds: timeout))) }
        if overflowed { return finish(.failure(NewsError.responseTooLarge(limit: limit))) }
        // A body shorter than its Content-Length that ended without a reset (libcurl reports an
        // unknown error, -1): the server was reached and its answer cut short.
        let claimed = response?.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init)
        let plain = response?.value(forHTTPHeaderField: "Content-Encoding").map { $0.isEmpty || $0 == "identity" } ?? true
        if let claimed, claimed > body.count, plain, error == nil || (error as NSError?)?.code == NSURLErrorUnknown {
            return finish(.failure(NewsError.malformedResponse(detail: "the response was cut short at \(body.count) of \(claimed) bytes")))
        }
        if let error { return finish(.failure(Self.map(error, timeout: timeout))) }
        guard let response else { return finish(.failure(NewsError.unreachable(detail: "no HTTP response"))) }
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        finish(.success(HTTPResponse(status: response.statusCode, headers: headers, body: body)))
    }

    static func map(_ error: Error, timeout: Double) -> NewsError {
        if let news = error as? NewsError { return news }
        let ns = error as NSError
        guard ns.domain == NSURLErrorDomain else { return .unreachable(detail: ns.localizedDescription) }
        switch ns.code {
        case NSURLErrorTimedOut: return .timedOut(seconds: timeout)
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return .unreachable(detail: "unknown host")
        case NSURLErrorCannotConnectToHost: return .unreachable(detail: "connection refused")
        case NSURLErrorNetworkConnectionLost: return .unreachable(detail: "connection lost")
        case NSURLErrorNotConnectedToInternet: return .unreachable(detail: "no network")
        case NSURLErrorCancelled: return .unreachable(detail: "cancelled")
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted,
             NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateNotYetValid:
            return .unreachable(detail: "TLS failed")
        case NSURLErrorCannotDecodeContentData, NSURLErrorCannotDecodeRawData:
            return .malformedResponse(detail: "undecodable body")
        default: return .unreachable(detail: "network error \(ns.code)")
        }
    }
}
