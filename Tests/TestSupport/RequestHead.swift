import Foundation

/// The request line and headers of one HTTP/1.1 request, parsed leniently: tests want to see what
/// a client sent, not to reject it.
struct RequestHead {
    var method: String
    var target: String
    var headers: [String: String]

    /// Parses the bytes up to (not including) the blank line.
    static func parse(_ data: Data) -> RequestHead? {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return RequestHead(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers)
    }

    var path: String {
        String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    var queryItems: [LoopbackHTTPServer.QueryItem] {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty else { return [] }
        return parts[1].split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let nv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in String(s).removingPercentEncoding ?? String(s) }
            return .init(decode(nv[0]), nv.count > 1 ? decode(nv[1]) : nil)
        }
    }

    /// The Content-Length the client sent, 0 for none (bounded: a test body is small).
    var contentLength: Int {
        min(max(Int(headers["content-length"] ?? "") ?? 0, 0), 1 << 20)
    }

    func record(body: Data, bytesSent: Int) -> LoopbackHTTPServer.RecordedRequest {
        .init(method: method, path: path, queryItems: queryItems, target: target, headers: headers, body: body, bytesSent: bytesSent)
    }

    /// True when the client said it takes gzip (`gzip` listed without `q=0`).
    var acceptsGzip: Bool {
        guard let value = headers["accept-encoding"] else { return false }
        return value.split(separator: ",").contains { part in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return fields.first == "gzip" && !fields.dropFirst().contains { $0 == "q=0" || $0 == "q=0.0" }
        }
    }
}

/// Response heads, with the reason phrases a client might show.
enum ResponseHead {
    static func make(status: Int, headers: [String: String], contentLength: Int?) -> Data {
        var out = "HTTP/1.1 \(status) \(reason(status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key })
        where !["content-length", "connection"].contains(name.lowercased()) {
            out += "\(name): \(value)\r\n"
        }
        if let contentLength { out += "Content-Length: \(contentLength)\r\n" }
        out += "Connection: close\r\n\r\n"
        return Data(out.utf8)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 426: return "Upgrade Required"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
