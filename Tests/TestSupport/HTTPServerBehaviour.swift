import Foundation

extension LoopbackHTTPServer {
    /// What the server does with a request to one path. Every response says `Connection: close`.
    public indirect enum Behaviour: Sendable {
        /// A whole response with an honest Content-Length.
        case respond(status: Int, headers: [String: String], body: Data)
        /// Reads the request, then holds the socket open without a byte of answer until the client
        /// gives up or the server stops.
        case neverAnswer
        /// Headers at once, then the body a few bytes at a time.
        case trickle(status: Int, body: Data, bytesPerSecond: Int)
        /// Headers and half the body, then a TCP reset (SO_LINGER 0) instead of the rest.
        case resetMidBody(status: Int, body: Data)
        /// A Content-Length of `claimedLength` but only `body` sent, then a normal close.
        case truncated(status: Int, body: Data, claimedLength: Int)
        /// No Content-Length at all: the body ends when the server closes (valid HTTP/1.1 with
        /// Connection: close). Lets a client's streaming size cap be tested.
        case unframed(status: Int, body: Data)
        /// Headers with no Content-Length, `prefix`, then `repeating` over and over until the client
        /// hangs up or the server stops: a body with no end, which only a client that counts the
        /// bytes as they arrive gets out of.
        case endless(status: Int, headers: [String: String], prefix: Data, repeating: Data)
        /// Exactly these bytes, status line and headers included, then a normal close: for the
        /// malformed and hostile answers no well-behaved server would send.
        case raw(Data)
        /// One behaviour per request to the path, in order; the last one repeats.
        case sequence([Behaviour])

        /// A 200 JSON answer.
        public static func json(_ body: Data, status: Int = 200, headers: [String: String] = [:]) -> Behaviour {
            .respond(status: status, headers: ["Content-Type": "application/json"].merging(headers) { _, new in new },
                     body: body)
        }

        /// A redirect to `location` (a relative one is resolved by the client) with no body.
        public static func redirect(to location: String, status: Int = 302, headers: [String: String] = [:]) -> Behaviour {
            .respond(status: status, headers: headers.merging(["Location": location]) { a, _ in a }, body: Data())
        }

        /// The behaviour for the `index`-th request (counting from 0).
        func resolved(forRequest index: Int) -> Behaviour {
            guard case let .sequence(list) = self else { return self }
            guard let last = list.last else { return .respond(status: 500, headers: [:], body: Data("empty sequence".utf8)) }
            return (index < list.count ? list[index] : last).resolved(forRequest: index)
        }
    }

    /// One `name=value` pair of a query string, percent-decoded, in the order sent.
    public struct QueryItem: Equatable, Sendable, CustomStringConvertible {
        public var name: String
        public var value: String?
        public init(_ name: String, _ value: String?) { self.name = name; self.value = value }
        public var description: String { value.map { "\(name)=\($0)" } ?? name }
    }

    /// A request as it arrived, and how many bytes the answer took on the wire.
    public struct RecordedRequest: Sendable, CustomStringConvertible {
        public var method: String
        /// The path without the query, percent-encoded as sent.
        public var path: String
        public var queryItems: [QueryItem]
        /// The request target exactly as sent: path and query.
        public var target: String
        /// Header names lower-cased; a repeated header keeps its values joined by ", ".
        public var headers: [String: String]
        /// The request's body as sent (its Content-Length's worth), empty for none.
        public var body: Data
        /// Everything the server wrote for the response, headers included.
        public var bytesSent: Int

        public func header(_ name: String) -> String? { headers[name.lowercased()] }
        public var description: String { "\(method) \(target)" }
    }
}
