import CCurl
import FoundationEssentials
import HeadlinesCore
import HeadlinesSources

/// One HTTP exchange (one hop of a request) on its own easy handle.
///
/// Thread and ownership: created, driven and released by `CurlBatch` on the one thread that runs
/// a batch; libcurl calls the body and header callbacks from `curl_multi_perform` on that same
/// thread, with `self` as an unretained user pointer (the batch holds the transfer until libcurl
/// has let go of the handle). `deinit` frees the handle and the header list.
final class CurlTransfer {
    let handle: UnsafeMutableRawPointer
    /// The bytes after decompression, never more than `cap`.
    private(set) var body = Data()
    /// The final response's headers: names lower-cased, control characters dropped.
    var headers: [String: String] { parsedHeaders.fields }
    /// True once the final response's head has been read whole.
    var headersComplete: Bool { parsedHeaders.complete }
    /// True once the body passed the cap: the transfer was aborted for it.
    private(set) var overflowed = false
    /// True when the headers passed `ResponseHeaders.maxBytes`: the transfer was aborted for it.
    private(set) var headersTooLarge = false
    /// True when two Content-Length values disagreed: the transfer was aborted for it.
    private(set) var conflictingLength = false
    private var parsedHeaders = ResponseHeaders()
    private let cap: Int
    /// libcurl's error buffer (CURLOPT_ERRORBUFFER), which must live as long as the handle.
    private let errorBuffer: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        buffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        return buffer
    }()
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The addresses no connection of this transfer may open; nil: any.
    private let refused: ConnectRule?
    /// True once `refused` kept a connection from opening.
    private(set) var refusedAddress = false

    /// Nil when libcurl cannot make a handle or refuses an option (both mean a broken libcurl).
    init?(request: HTTPRequest, limits: TransportLimits, userAgent: String, remaining seconds: Double,
          refusing refused: ConnectRule? = nil) {
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.refused = refused
        cap = limits.maxResponseBytes
        let ms = max(1, Int((seconds * 1000).rounded(.up)))
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            // "Name;" is libcurl's spelling of a header sent with an empty value.
            headerList = curl_slist_append(headerList, value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        let user = Unmanaged.passUnretained(self).toOpaque()
        let codes: [CURLcode] = [
            headlines_curl_setopt_string(handle, CURLOPT_URL, request.url.absoluteString),
            headlines_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            headlines_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            // Redirects are followed by CurlBatch, hop by hop, through RedirectPolicy.
            headlines_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            headlines_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            // The CA folder and no bundle: OpenSSL then reads the one certificate a server's chain
            // names, by its hashed link, instead of parsing every CA in the bundle at each handshake.
            headlines_curl_setopt_string(handle, CURLOPT_CAINFO, nil),
            headlines_curl_setopt_string(handle, CURLOPT_CAPATH, "/etc/ssl/certs"),
            // The whole exchange, headers and body; CurlBatch passes what is left of the request's
            // time, so that redirects share one timeout.
            headlines_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, ms),
            headlines_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(10_000, ms)),
            // An honest Content-Length over the cap fails before a byte of body is read.
            headlines_curl_setopt_long(handle, CURLOPT_MAXFILESIZE, cap),
            // No CURLOPT_COOKIEFILE: libcurl's cookie engine stays off, so no cookie a server sets
            // is ever sent back, a publisher cannot tell one reload from the next by one.
            headlines_curl_setopt_string(handle, CURLOPT_USERAGENT, userAgent),
            // "" offers every encoding this libcurl decodes (gzip, deflate, br, zstd on Debian).
            headlines_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, limits.acceptGzip ? "" : "identity"),
            headlines_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList),
            headlines_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, user),
            headlines_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, user),
            headlines_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            headlines_curl_setopt_write(handle) { data, size, count, user in
                Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue().receiveBody(data, size * count)
            },
            headlines_curl_setopt_header(handle) { data, size, count, user in
                Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue().receiveHeader(data, size * count)
            },
        ]
        // http_proxy, https_proxy and no_proxy are left to libcurl, which reads them as every
        // libcurl tool does, with one exception: a key may go over plain http only to loopback
        // (checkKeyIsSafe), and through a proxy it would cross the network in clear text.
        let keyInClear = request.carriesKey && request.url.scheme?.lowercased() == "http"
        let proxyCode = keyInClear ? headlines_curl_setopt_string(handle, CURLOPT_NOPROXY, "*") : CURLE_OK
        guard codes.allSatisfy({ $0 == CURLE_OK }), proxyCode == CURLE_OK, setMethod(of: request), refused == nil || checksAddresses(user) else { return nil }
    }

    /// A sync service's writes: the body copied into libcurl (its length first, so any byte may
    /// be in it), and the method when it is not GET or POST.
    private func setMethod(of request: HTTPRequest) -> Bool {
        var codes: [CURLcode] = []
        if let body = request.body {
            codes.append(headlines_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
            codes.append(body.withUnsafeBytes { raw in
                headlines_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            })
        }
        if request.method != "GET" && request.method != "POST" || (request.method == "POST" && request.body == nil) {
            codes.append(headlines_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
        }
        return codes.allSatisfy { $0 == CURLE_OK }
    }

    /// Every socket libcurl opens for this transfer goes through `openSocket`, which sees the
    /// address it is for (after DNS, on every redirect hop, for each address tried).
    private func checksAddresses(_ user: UnsafeMutableRawPointer) -> Bool {
        headlines_curl_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, user) == CURLE_OK
            && headlines_curl_setopt_opensocket(handle) { user, purpose, address in
                Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue().openSocket(purpose, address)
            } == CURLE_OK
    }

    /// A socket for `address`, or CURL_SOCKET_BAD when `refused` covers it: no connection is
    /// made, and libcurl tries the host's next address or fails with "could not connect".
    private func openSocket(_ purpose: curlsocktype, _ address: UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t {
        guard let address else { return CURL_SOCKET_BAD }
        let info = address.pointee
        // libcurl's own struct holds a whole sockaddr_storage where `addr` starts.
        let raw = UnsafeRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \.addr)!
        if purpose == CURLSOCKTYPE_IPCXN, let refused {
            guard let ip = IPAddress(raw, length: Int(info.addrlen)), !refused.refuses(ip) else {
                refusedAddress = true
                return CURL_SOCKET_BAD
            }
        }
        return socket(info.family, info.socktype | Int32(SOCK_CLOEXEC.rawValue), info.protocol)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Counted after decompression: returning short makes libcurl abort at once, so a gzip bomb
    /// or an endless close-delimited body never costs more than the cap.
    private func receiveBody(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard count > 0, let data else { return count }
        guard body.count + count <= cap else {
            overflowed = true
            body = Data()
            return 0
        }
        body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: count)
        return count
    }

    /// One header line; returning short makes libcurl abort the transfer.
    private func receiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard count > 0, let data else { return count }
        switch parsedHeaders.add(UnsafeRawBufferPointer(start: data, count: count)) {
        case .accepted: return count
        case .tooLarge: headersTooLarge = true
        case .conflictingLength: conflictingLength = true
        }
        return 0
    }

    /// What libcurl wrote into its error buffer: its own fixed phrases, used only to tell apart
    /// failures that share a result code, never shown.
    var curlMessage: String {
        errorBuffer[Int(CURL_ERROR_SIZE)] = 0
        return String(cString: errorBuffer)
    }

    var status: Int {
        var code = 0
        _ = headlines_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// Where a 3xx points, resolved against the request's URL by libcurl; nil without a Location.
    var redirectURL: String? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard headlines_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &pointer) == CURLE_OK, let pointer else { return nil }
        return String(cString: pointer)
    }

    /// The Content-Length the server announced, if any.
    var announcedLength: Int? {
        var length: curl_off_t = -1
        guard headlines_curl_getinfo_off_t(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK,
              length >= 0 else { return nil }
        return Int(length)
    }
}
