import ConfettiConfig
import ConfettiCore
import ConfettiPlatform
import Dispatch
import FoundationEssentials
import Glibc

/// `confetti service --webhook PORT`: the same celebrations over HTTP, for what can send a
/// request but not a D-Bus call (a CI notifier, a deploy hook, a home-automation rule), off
/// unless asked for. It listens on the loopback address alone (127.0.0.1), and takes
/// `POST /celebrate` with `Authorization: Bearer TOKEN`, the token in a file of the user's alone
/// (``tokenFile(in:)``), and a `Host` of 127.0.0.1 or localhost, so that a web page in a browser
/// cannot make one (a page cannot send the token, and a name rebound to 127.0.0.1 is refused).
/// The body, if any, is JSON: `{"effect": "fireworks", "seed": 7}` with `Celebrate`'s options.
/// It is answered as `Celebrate` is: once the celebration is on the screen, `{"id": N}`.
package final class Webhook: @unchecked Sendable {
  /// The one path it takes.
  package static let path = "/celebrate"
  /// Requests handled at once; one more is refused (503) at once.
  static let mostAtOnce = 8
  /// The largest request head and body it reads, in bytes.
  static let largestHead = 16 << 10
  static let largestBody = 1 << 20
  /// How long a request may pause, in seconds (and take in all, twice that).
  static let readTimeout = 5

  let port: UInt16
  private let token: [UInt8]
  private let listener: Int32
  private let celebrate: Celebrate
  private let lock = Lock()
  private var handling = 0

  /// What takes each call, and the reply it is answered by once.
  typealias Celebrate =
    @Sendable (CelebrateCall, @escaping @Sendable (CelebrateAnswer) -> Void)
    -> Void

  /// Listens on 127.0.0.1:`port` (0: a free one, ``port`` says which), taking `token`; throws
  /// ``ServiceError`` when it cannot. `celebrate` takes each call and its reply.
  init(port: UInt16, token: [UInt8], celebrate: @escaping Celebrate) throws {
    let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    let socket = Glibc.socket(AF_INET, kind, 0)
    guard socket >= 0 else { throw ServiceError("cannot make the webhook's socket: \(Self.why())") }
    var yes: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian  // 127.0.0.1: this machine alone
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(socket, 16) == 0 else {
      let why = Self.why()
      close(socket)
      throw ServiceError("cannot listen on 127.0.0.1:\(port) for the webhook: \(why)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    (self.port, self.token, listener, self.celebrate) = (
      UInt16(bigEndian: address.sin_port), token, socket, celebrate
    )
  }

  private static func why() -> String { String(cString: strerror(errno)) }

  /// The token's file: `$XDG_CONFIG_HOME/confetti/webhook-token` (else under ~/.config).
  package static func tokenFile(in environment: [String: String]) -> String {
    "\(configurationFolder(in: environment) ?? "/nonexistent/.config")/confetti/webhook-token"
  }

  /// The token in `path`, made there (32 random bytes, as hex, readable by this user alone)
  /// where there is none; throws when the file is another's or others may read it.
  package static func token(at path: String) throws -> [UInt8] {
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    let parent = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])
    for made in [parent, folder] where !made.isEmpty { mkdir(made, 0o700) }
    var descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    if descriptor < 0, errno == ENOENT {
      // 64 hex digits (32 bytes) from the system's secure generator (getrandom).
      var secure = SystemRandomNumberGenerator()
      let digits = Array("0123456789abcdef".utf8)
      let text = (0..<64).map { _ in digits[Int.random(in: 0..<16, using: &secure)] }
      let made = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      guard made >= 0, write(made, text, text.count) == text.count else {
        throw ServiceError("cannot write the webhook's token to \(path): \(why())")
      }
      close(made)
      descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    }
    guard descriptor >= 0 else {
      throw ServiceError("cannot read the webhook's token from \(path): \(why())")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      status.st_uid == getuid()
    else { throw ServiceError("\(path) is not a file of yours: remove it, and a token is made") }
    guard status.st_mode & 0o077 == 0 else {
      throw ServiceError("others may read the webhook's token in \(path): chmod 600 \(path)")
    }
    var bytes = [UInt8](repeating: 0, count: 256)
    let count = read(descriptor, &bytes, bytes.count)
    let token = Array(bytes[..<max(0, count)]).filter { $0 > 0x20 && $0 < 0x7f }
    guard token.count >= 16 else {
      throw ServiceError("the webhook's token in \(path) is under 16 characters: remove the file")
    }
    return token
  }

  /// Takes requests, each on a thread of its own, for ever.
  func serve() {
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else {
        // Out of descriptors, say: waited on, not spun on.
        if errno != EINTR { usleep(100_000) }
        continue
      }
      _ = fcntl(connection, F_SETFD, FD_CLOEXEC)  // not handed to the overlays it starts
      lock.lock()
      let busy = handling >= Self.mostAtOnce
      if !busy { handling += 1 }
      lock.unlock()
      if busy {
        refuse(connection, 503, .busy, "too many requests at once")
        continue
      }
      let started = detachThread { [self] in
        handle(connection)
        lock.lock()
        handling -= 1
        lock.unlock()
      }
      if !started {
        close(connection)
        lock.lock()
        handling -= 1
        lock.unlock()
      }
    }
  }

  /// One request, answered and closed.
  private func handle(_ connection: Int32) {
    var timeout = timeval(tv_sec: Self.readTimeout, tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var headEnd: Int?
    // The whole request within twice a read's time, however slowly it trickles in.
    let deadline = ContinuousClock.now + .seconds(2 * Self.readTimeout)
    while headEnd == nil {
      let count = ContinuousClock.now < deadline ? read(connection, &buffer, buffer.count) : 0
      guard count > 0 else {
        close(connection)
        return
      }
      received += buffer[..<count]
      headEnd = received.firstRange(of: [13, 10, 13, 10])?.upperBound
      if headEnd == nil, received.count > Self.largestHead {
        return refuse(connection, 431, .invalidArguments, "the request's head is over 16 KiB")
      }
    }
    guard let headEnd else {
      close(connection)
      return
    }
    let head = String(decoding: received[..<headEnd], as: UTF8.self)
    var lines = head.split(separator: "\r\n").map(String.init)
    let requestLine =
      lines.isEmpty ? [] : lines.removeFirst().split(separator: " ").map(String.init)
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = String(
        line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
    }
    guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
      return refuse(connection, 400, .invalidArguments, "not an HTTP/1 request")
    }
    // A name that a web page rebound to 127.0.0.1 is not this machine's own.
    guard ["127.0.0.1:\(port)", "localhost:\(port)"].contains(headers["host"]?.lowercased() ?? "")
    else {
      return refuse(
        connection, 403, .accessDenied, "the Host must be 127.0.0.1:\(port) or localhost:\(port)")
    }
    guard requestLine[1] == Self.path else {
      return refuse(connection, 404, .invalidArguments, "the webhook is POST \(Self.path)")
    }
    guard requestLine[0] == "POST" else {
      return refuse(connection, 405, .invalidArguments, "the webhook is POST \(Self.path)")
    }
    guard let given = headers["authorization"], given.hasPrefix("Bearer "),
      Self.same(Array(given.dropFirst("Bearer ".count).utf8), token)
    else {
      return refuse(
        connection, 401, .accessDenied,
        "give the token (in \(Self.tokenFileName)) as Authorization: Bearer TOKEN")
    }
    guard headers["transfer-encoding"] == nil else {
      return refuse(connection, 411, .invalidArguments, "give the body with a Content-Length")
    }
    let length = Int(headers["content-length"] ?? "0") ?? -1
    guard (0...Self.largestBody).contains(length) else {
      return refuse(connection, 413, .invalidArguments, "the body must be 0 to 1 MiB of JSON")
    }
    var body = Array(received[headEnd...])
    while body.count < length {
      let count =
        ContinuousClock.now < deadline
        ? read(connection, &buffer, min(buffer.count, length - body.count)) : 0
      guard count > 0 else {
        close(connection)
        return
      }
      body += buffer[..<count]
    }
    let call: CelebrateCall
    do {
      call = try Self.call(from: String(decoding: body.prefix(length), as: UTF8.self))
    } catch {
      return refuse(connection, 400, error.failure, error.message)
    }
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var outcome: CelebrateAnswer?
    celebrate(call) {
      outcome = $0
      done.signal()
    }
    done.wait()
    switch outcome {
    case .shown(let id): answer(connection, 200, [("id", .number(Double(id)))])
    case .refused(let failure, let why):
      refuse(connection, Self.status(of: failure), failure, why)
    case nil: _ = close(connection)
    }
  }

  /// Where the token is, as a caller's message names it.
  private static let tokenFileName = "~/.config/confetti/webhook-token"

  /// The HTTP status of a refusal.
  private static func status(of failure: ServiceInterface.Failure) -> Int {
    switch failure {
    case .effect: 422
    case .invalidArguments: 400
    case .busy: 429
    case .desktop: 503
    case .cancelled: 409
    case .accessDenied: 403
    }
  }

  /// The body as a `Celebrate` call: nothing, or a JSON object of `effect` and the options.
  static func call(from body: String) throws(CelebrateCall.Refusal) -> CelebrateCall {
    guard !body.allSatisfy(\.isWhitespace) else { return CelebrateCall(effect: "", options: []) }
    let parsed: JSONValue
    do {
      parsed = try StrictJSON.parse(body)
    } catch {
      throw CelebrateCall.Refusal(failure: .invalidArguments, message: "the body: \(error)")
    }
    guard case .object(let members) = parsed else {
      throw CelebrateCall.Refusal(
        failure: .invalidArguments, message: "the body must be a JSON object")
    }
    var effect = ""
    var options: [(key: String, value: CelebrateCall.Value)] = []
    for (key, value) in members {
      if key == "effect" {
        guard case .string(let text) = value else {
          throw CelebrateCall.Refusal(
            failure: .invalidArguments, message: "effect must be a string")
        }
        effect = text
        continue
      }
      switch value {
      case .number(let number)
      where number.rounded() == number && abs(number) < 9_007_199_254_740_992:
        options.append((key, .integer(Int64(number))))
      case .number(let number): options.append((key, .number(number)))
      case .bool(let flag): options.append((key, .boolean(flag)))
      case .string(let text): options.append((key, .text(text)))
      case .null: options.append((key, .other(type: "null")))
      case .array: options.append((key, .other(type: "array")))
      case .object: options.append((key, .other(type: "object")))
      }
    }
    return CelebrateCall(effect: effect, options: options)
  }

  /// Whether `a` and `b` are the same, in a time that does not tell where they differ.
  private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }

  private func refuse(
    _ connection: Int32, _ status: Int, _ failure: ServiceInterface.Failure, _ why: String
  ) {
    answer(
      connection, status,
      [("error", .string(failure.rawValue)), ("message", .string(oneLine(why)))])
  }

  private func answer(
    _ connection: Int32, _ status: Int, _ members: [(key: String, value: JSONValue)]
  ) {
    let body = ((try? JSONValue.object(members).text(.oneLine)) ?? "{}") + "\n"
    let reasons = [
      200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
      405: "Method Not Allowed", 409: "Conflict", 411: "Length Required", 413: "Payload Too Large",
      422: "Unprocessable Content", 429: "Too Many Requests",
      431: "Request Header Fields Too Large",
      503: "Service Unavailable",
    ]
    var head = "HTTP/1.1 \(status) \(reasons[status] ?? "Error")\r\n"
    head += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
    if status == 401 { head += "WWW-Authenticate: Bearer\r\n" }
    if status == 405 { head += "Allow: POST\r\n" }
    head += "Connection: close\r\n\r\n"
    let bytes = Array((head + body).utf8)
    _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    close(connection)
  }
}
