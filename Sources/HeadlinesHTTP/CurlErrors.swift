import CCurl
import HeadlinesCore
import HeadlinesSources

/// libcurl's result codes in the project's words. Details are fixed phrases: they never carry
/// the URL (which may hold a key) nor anything the server sent, apart from a content-coding
/// name cut down to letters, digits and dashes. libcurl's error buffer only tells apart failures
/// that share a code; its text is never shown.
enum CurlErrors {
    static func newsError(_ code: CURLcode, transfer: CurlTransfer, limits: TransportLimits) -> NewsError {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(seconds: limits.timeout)
        case CURLE_WRITE_ERROR where transfer.overflowed, CURLE_FILESIZE_EXCEEDED:
            return .responseTooLarge(limit: limits.maxResponseBytes)
        case CURLE_WRITE_ERROR where transfer.headersTooLarge:
            return .malformedResponse(detail: "more than \(ResponseHeaders.maxBytes / 1024) KiB of headers")
        case CURLE_WRITE_ERROR where transfer.conflictingLength:
            return .malformedResponse(detail: "two different Content-Length headers")
        case CURLE_OUT_OF_MEMORY where !transfer.headersComplete:
            // libcurl refuses a single header line over 100 KiB with this code and no other sign.
            return .malformedResponse(detail: "a header line longer than 100 KiB")
        case CURLE_RECV_ERROR where transfer.curlMessage.contains("chunked-encoding"):
            return .malformedResponse(detail: "broken chunked encoding")
        case CURLE_UNSUPPORTED_PROTOCOL where transfer.curlMessage.contains("HTTP/0.9"):
            return .malformedResponse(detail: "no HTTP status line")
        case CURLE_BAD_CONTENT_ENCODING where transfer.curlMessage.contains("Unrecognized content encoding"):
            return .malformedResponse(detail: "compressed as \(unknownCoding(transfer.headers["content-encoding"])), which this libcurl cannot decode")
        case CURLE_PARTIAL_FILE:
            if let claimed = transfer.announcedLength, transfer.headers["content-encoding"].map({ $0.isEmpty || $0 == "identity" }) ?? true {
                return .malformedResponse(detail: "the response was cut short at \(transfer.body.count) of \(claimed) bytes")
            }
            return .malformedResponse(detail: "the response was cut short")
        case CURLE_BAD_CONTENT_ENCODING:
            return .malformedResponse(detail: "a compressed body that does not decode")
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .malformedResponse(detail: "not a valid HTTP response")
        case CURLE_COULDNT_RESOLVE_HOST:
            return .unreachable(detail: "unknown host")
        case CURLE_COULDNT_RESOLVE_PROXY:
            return .unreachable(detail: "unknown proxy host")
        case CURLE_COULDNT_CONNECT where transfer.refusedAddress:
            return .localNetwork
        case CURLE_COULDNT_CONNECT:
            return .unreachable(detail: "connection refused")
        case CURLE_PROXY:
            return .unreachable(detail: "the proxy refused the request")
        case CURLE_RECV_ERROR:
            return .unreachable(detail: "connection reset")
        case CURLE_SEND_ERROR:
            return .unreachable(detail: "connection lost")
        case CURLE_GOT_NOTHING:
            return .unreachable(detail: "empty reply")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED, CURLE_SSL_SHUTDOWN_FAILED:
            return .unreachable(detail: "TLS failed")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .unreachable(detail: "not an http or https URL")
        case CURLE_URL_MALFORMAT:
            return .unreachable(detail: "malformed URL")
        case CURLE_WRITE_ERROR, CURLE_OUT_OF_MEMORY:
            return .unreachable(detail: "could not store the response")
        default:
            return .unreachable(detail: "network error \(code.rawValue)")
        }
    }

    /// The first coding in a Content-Encoding value that libcurl does not know, reduced to at
    /// most 20 of [a-z0-9_-]: a server-chosen word, so nothing else of it may pass.
    static func unknownCoding(_ value: String?) -> String {
        let known: Set<String> = ["gzip", "x-gzip", "deflate", "br", "zstd", "identity"]
        for token in (value ?? "").lowercased().split(separator: ",") {
            let word = String(token.unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "_-".unicodeScalars.contains($0) }
                .prefix(20).map(Character.init))
            if !known.contains(word) { return word.isEmpty ? "an unnamed encoding" : "'\(word)'" }
        }
        return "an unknown encoding"
    }
}
