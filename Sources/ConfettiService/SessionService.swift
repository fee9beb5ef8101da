import CSessionBus
import ConfettiCelebration
import ConfettiCore
import ConfettiPlatform
import Dispatch
import FoundationEssentials
import Glibc

/// `confetti service`: celebrations for any program on the user's session bus
/// (``ServiceInterface``), one overlay at a time by ``CelebrationQueue``'s rule.
///
/// It stays warm: an overlay is kept made ahead (the program started, its window and GL context
/// made, unshown), so that a call's celebration is on the screen without a program's start. A
/// call is answered once its celebration is shown, with its number, and
/// ``ServiceInterface/over`` carries that number once it is over.
package final class SessionService: @unchecked Sendable {
  /// A `Celebrate` call waiting for its answer (given once): its caller's unique name on the
  /// bus ("" for the webhook's), and how it is answered.
  struct Call: Sendable {
    let sender: String
    let reply: @Sendable (CelebrateAnswer) -> Void
  }

  /// GDBus's invocation, answered exactly once, from any thread.
  private struct Invocation: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer

    func reply(_ answer: CelebrateAnswer) {
      switch answer {
      case .shown(let id): confetti_bus_reply_u32(pointer, id)
      case .refused(let failure, let why):
        confetti_bus_reply_error(pointer, failure.rawValue, oneLine(why))
      }
    }
  }

  private let lock = Lock()
  private var queue = CelebrationQueue<Call>()
  private var bus: OpaquePointer?
  /// Counts calls that may have left a celebration to show.
  private let work = DispatchSemaphore(value: 0)
  /// The overlay made ahead for the primary monitor, while there is one.
  private var standby: Celebration?
  /// The celebration on the screen (or starting), and its number.
  private var current: (id: UInt32, celebration: Celebration?)?
  /// A celebration asked to be cancelled while it was starting.
  private var cancelled: UInt32?
  private let started = ContinuousClock.now
  /// Told, in one line, what the service has to say: a failed celebration, a standby that
  /// could not be made (a service's standard error goes to the journal).
  private let report: (String) -> Void

  private init(report: @escaping (String) -> Void) { self.report = report }

  /// Seconds since the service started: the queue's clock.
  private var now: Seconds {
    let (whole, fraction) = (ContinuousClock.now - started).components
    return Seconds(whole) + Seconds(fraction) * 1e-18
  }

  /// Runs the service until SIGTERM, SIGINT or SIGHUP; throws ``ServiceError`` when it cannot
  /// start (no session bus, the name owned by another, the webhook's port taken) or loses its bus
  /// or its name. The celebration on the screen ends with it. With `webhook`, the same calls
  /// over HTTP on that port of 127.0.0.1 (``Webhook``; 0: a free one, said with `report`).
  package static func run(webhook: UInt16? = nil, report: @escaping (String) -> Void) throws {
    let service = SessionService(report: report)
    let hook = try webhook.map { port in
      let file = Webhook.tokenFile(in: ProcessInfo.processInfo.environment)
      return (
        try Webhook(port: port, token: try Webhook.token(at: file)) { call, reply in
          service.admit(call, from: Call(sender: "", reply: reply))
        }, file
      )
    }
    var failure: UnsafeMutablePointer<CChar>?
    let context = Unmanaged.passRetained(service).toOpaque()
    guard
      let bus = confetti_bus_open(
        ServiceInterface.busName, ServiceInterface.objectPath, ServiceInterface.introspection,
        ServiceInterface.interface,
        { call, context in
          guard let call, let context else { return }
          Unmanaged<SessionService>.fromOpaque(context).takeUnretainedValue().answer(call.pointee)
        },
        { name, context in
          guard let name, let context else { return }
          Unmanaged<SessionService>.fromOpaque(context).takeUnretainedValue()
            .forget(caller: String(cString: name))
        }, context, &failure)
    else { throw ServiceError(taking: failure) }
    service.bus = bus
    service.makeStandby()
    guard detachThread({ service.showWaiting() }) else {
      throw ServiceError("cannot start the service's worker thread")
    }
    if let (webhook, file) = hook {
      guard detachThread({ webhook.serve() }) else {
        throw ServiceError("cannot start the webhook's thread")
      }
      report(
        "webhook on http://127.0.0.1:\(webhook.port)\(Webhook.path), its token in \(file)")
    }
    let status = confetti_bus_run(bus, &failure)
    service.end()
    if status != 0 { throw ServiceError(taking: failure) }
  }

  /// A call, on the bus's thread: refused, answered, or queued for the worker.
  private func answer(_ call: confetti_bus_call) {
    guard call.sender_uid_known != 0, call.sender_uid == getuid() else {
      let who = call.sender_uid_known != 0 ? "user \(call.sender_uid)" : "an unknown user"
      return refuse(
        call.invocation, .accessDenied,
        "only user \(getuid())'s own programs may celebrate through this service, not \(who)'s")
    }
    if String(cString: call.method) == ServiceInterface.cancel {
      return cancel(call.number, call.invocation)
    }
    guard let invocation = call.invocation else { return }
    let celebrate = CelebrateCall(
      effect: String(cString: call.text),
      options: (0..<Int(call.option_count)).map { index in
        let option = call.options[index]
        return (String(cString: option.key), Self.value(of: option))
      })
    let caller = Call(
      sender: String(cString: call.sender), reply: Invocation(pointer: invocation).reply)
    // Checked off the bus's thread: an effect's JSON and pictures may take a while to read, and
    // the bus goes on meanwhile.
    DispatchQueue.global().async { self.admit(celebrate, from: caller) }
  }

  private func admit(_ celebrate: CelebrateCall, from caller: Call) {
    let options: CelebrationOptions
    do {
      options = try celebrate.celebration()
    } catch {
      return caller.reply(.refused(error.failure, error.message))
    }
    lock.lock()
    let admission = queue.admit(options, from: caller, at: now)
    lock.unlock()
    switch admission {
    case .shown(let id): caller.reply(.shown(id))
    case .waits: work.signal()
    case .refused(let why): caller.reply(.refused(.busy, why))
    }
  }

  /// `Cancel(id)`: the celebration on the screen ends (its `Over` follows), one waiting is
  /// forgotten and its calls told so.
  private func cancel(_ id: UInt32, _ invocation: UnsafeMutableRawPointer?) {
    lock.lock()
    let cancelling = queue.cancel(id)
    var showing: Celebration?
    if case .showing = cancelling {
      cancelled = id
      showing = current?.id == id ? current?.celebration : nil
    }
    lock.unlock()
    switch cancelling {
    case .showing:
      showing?.cancel()
    case .waited(let calls):
      for call in calls { call.reply(.refused(.cancelled, "celebration \(id) was cancelled")) }
    case .unknown:
      return refuse(
        invocation, .invalidArguments, "no celebration \(id) is on the screen or waiting")
    }
    confetti_bus_reply_empty(invocation)
  }

  /// A caller left the bus: its calls will read no answer, and a celebration only they waited
  /// for is not shown.
  private func forget(caller name: String) {
    lock.lock()
    let gone = queue.forget { $0.sender == name && !name.isEmpty }
    lock.unlock()
    // Each is still answered once, into nothing, so that GDBus lets go of it.
    for call in gone { call.reply(.refused(.cancelled, "the caller has gone")) }
  }

  private static func value(of option: confetti_bus_option) -> CelebrateCall.Value {
    switch String(cString: option.type) {
    case "y", "n", "q", "i", "u", "x":
      .integer(option.integer)
    case "t":
      option.is_large_unsigned != 0
        ? .largeUnsigned(option.unsigned_integer) : .integer(option.integer)
    case "d": .number(option.number)
    case "b": .boolean(option.integer != 0)
    case "s": .text(String(cString: option.text))
    case let type: .other(type: type)
    }
  }

  private func refuse(
    _ invocation: UnsafeMutableRawPointer?, _ failure: ServiceInterface.Failure, _ why: String
  ) {
    confetti_bus_reply_error(invocation, failure.rawValue, oneLine(why))
  }

  /// The worker: shows what waits, one at a time, for ever.
  private func showWaiting() {
    while true {
      lock.lock()
      let next = queue.next()
      if let next { current = (next.id, nil) }
      lock.unlock()
      guard let next else {
        work.wait()
        continue
      }
      show(next)
      lock.lock()
      (current, cancelled) = (nil, nil)
      lock.unlock()
      // Made again if this one used it and failed (once shown, it was made then).
      makeStandby()
    }
  }

  /// Whether celebration `id` was cancelled while it started; else notes it as the one on the
  /// screen, for a cancel to end.
  private func keep(_ celebration: Celebration, as id: UInt32) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    current = (id, celebration)
    return cancelled == id
  }

  private func wasCancelled(_ id: UInt32) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled == id
  }

  private func show(_ entry: CelebrationQueue<Call>.Entry) {
    var celebration: Celebration
    var madeAhead: Bool
    do {
      (celebration, madeAhead) = try start(entry.options)
    } catch {
      return failed(entry.id, "\(error)")
    }
    defer { celebration.close() }
    while true {
      if keep(celebration, as: entry.id) {
        celebration.cancel()
        return failed(entry.id, "celebration \(entry.id) was cancelled", as: .cancelled)
      }
      // One made ahead shows at once, unless it is stuck: a fresh one is not kept waiting.
      let limit = madeAhead ? Self.longestStartMadeAhead : Self.longestStart
      do {
        if try celebration.waitUntilShown(timeout: limit) { break }
        celebration.cancel()
        throw CelebrationError("the celebration was not on the screen within \(Int(limit)) s")
      } catch {
        if wasCancelled(entry.id) {
          return failed(entry.id, "celebration \(entry.id) was cancelled", as: .cancelled)
        }
        // One made ahead may have lost its desktop while it waited (the display restarted, the
        // compositor gone): a fresh one, once, shows or says why.
        guard madeAhead else { return failed(entry.id, "\(error)") }
        report("the overlay made ahead failed (\(error)); starting one for celebration \(entry.id)")
        celebration.close()
        do {
          (celebration, madeAhead) = (try Celebration(entry.options), false)
        } catch {
          return failed(entry.id, "\(error)")
        }
      }
    }
    lock.lock()
    let calls = queue.shown(entry.id, at: now)
    lock.unlock()
    for call in calls { call.reply(.shown(entry.id)) }
    // The next standby is made once this one is on the screen, not while it starts.
    makeStandby()
    do {
      // Over by itself (the longest preset lasts under 20 s; a continuous effect, its
      // duration): an overlay far past that is stuck, and must not hold every call after it.
      let longest = (entry.options.duration ?? Celebration.defaultDuration) + Self.longestOverrun
      if try !celebration.wait(timeout: longest) {
        report("celebration \(entry.id) was still on the screen after \(Int(longest)) s: ended")
      }
    } catch {
      report("celebration \(entry.id): \(error)")
    }
    if let bus { confetti_bus_emit_u32(bus, ServiceInterface.over, entry.id) }
    lock.lock()
    let left = queue.over(entry.id)
    lock.unlock()
    for call in left { call.reply(.shown(entry.id)) }
  }

  /// The longest a celebration may take to be on the screen, in seconds.
  static let longestStart: Seconds = 30
  /// The longest an overlay made ahead may take, told what to show, before a fresh one is
  /// started instead, in seconds: it shows in a few hundredths when well.
  static let longestStartMadeAhead: Seconds = 5
  /// How long past its duration (or the default one) a celebration may stay, in seconds.
  static let longestOverrun: Seconds = 120

  private func failed(
    _ id: UInt32, _ why: String, as failure: ServiceInterface.Failure = .desktop
  ) {
    if failure != .cancelled { report("celebration \(id): \(why)") }
    lock.lock()
    let calls = queue.over(id)
    lock.unlock()
    for call in calls { call.reply(.refused(failure, why)) }
  }

  /// The celebration for `options`: the standby told it, where it fits (the primary monitor,
  /// the desktop's own motion setting or reduced motion), else a program started for it.
  /// (Whether it is the standby's.)
  private func start(_ options: CelebrationOptions) throws -> (Celebration, madeAhead: Bool) {
    lock.lock()
    let ready = standby
    standby = nil
    lock.unlock()
    if let ready {
      guard options.monitor == nil, options.reduceMotion != false else {
        // Kept for the next call it fits.
        lock.lock()
        standby = ready
        lock.unlock()
        return (try Celebration(options), false)
      }
      do {
        try ready.begin(options)
        return (ready, true)
      } catch {
        // Its overlay had ended (the display went, say): a fresh one says why, if it fails.
        ready.close()
      }
    }
    return (try Celebration(options), false)
  }

  /// Makes the next standby overlay, unless there is one.
  private func makeStandby() {
    lock.lock()
    let needed = standby == nil
    lock.unlock()
    guard needed else { return }
    // Started outside the lock: the bus's thread is not held while a program starts. Only the
    // worker makes them, so none is made twice.
    do {
      let made = try Celebration.standby(monitor: nil)
      lock.lock()
      standby = made
      lock.unlock()
    } catch {
      report("no overlay made ahead: \(error)")
    }
  }

  /// The service ends: the celebration on the screen and the standby with it, their files
  /// removed.
  private func end() {
    lock.lock()
    let ending = [current?.celebration, standby].compactMap { $0 }
    lock.unlock()
    for celebration in ending { celebration.close() }
  }
}

/// Why the service could not start or go on, in one line.
package struct ServiceError: Error, CustomStringConvertible {
  package let description: String

  init(taking message: UnsafeMutablePointer<CChar>?) {
    description = message.map { String(cString: $0) } ?? "the session bus failed"
    free(message)
  }

  init(_ description: String) { self.description = description }
}
