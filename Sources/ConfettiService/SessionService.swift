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
  private let lock = Lock()
  private var queue = CelebrationQueue<UnsafeMutableRawPointer>()
  private var bus: OpaquePointer?
  /// Counts calls that may have left a celebration to show.
  private let work = DispatchSemaphore(value: 0)
  /// The overlay made ahead for the primary monitor, while there is one.
  private var standby: Celebration?
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
  /// start (no session bus, the name owned by another) or loses its name.
  package static func run(report: @escaping (String) -> Void) throws {
    let service = SessionService(report: report)
    var failure: UnsafeMutablePointer<CChar>?
    let context = Unmanaged.passRetained(service).toOpaque()
    guard
      let bus = confetti_bus_open(
        ServiceInterface.busName, ServiceInterface.objectPath, ServiceInterface.introspection,
        ServiceInterface.interface,
        { call, context in
          guard let call, let context else { return }
          Unmanaged<SessionService>.fromOpaque(context).takeUnretainedValue().answer(call.pointee)
        }, context, &failure)
    else { throw ServiceError(taking: failure) }
    service.bus = bus
    service.makeStandby()
    guard detachThread({ service.showWaiting() }) else {
      throw ServiceError(taking: strdup("cannot start the service's worker thread"))
    }
    if confetti_bus_run(bus, &failure) != 0 { throw ServiceError(taking: failure) }
  }

  /// A call, on the bus's thread: refused, answered, or queued for the worker.
  private func answer(_ call: confetti_bus_call) {
    guard call.sender_uid_known != 0, call.sender_uid == getuid() else {
      let who = call.sender_uid_known != 0 ? "user \(call.sender_uid)" : "an unknown user"
      return refuse(
        call.invocation, .accessDenied,
        "only user \(getuid())'s own programs may celebrate through this service, not \(who)'s")
    }
    let celebrate = CelebrateCall(
      effect: String(cString: call.text),
      options: (0..<Int(call.option_count)).map { index in
        let option = call.options[index]
        return (String(cString: option.key), Self.value(of: option))
      })
    let options: CelebrationOptions
    do {
      options = try celebrate.celebration()
    } catch {
      return refuse(call.invocation, error.failure, error.message)
    }
    lock.lock()
    let admission = queue.admit(options, from: call.invocation, at: now)
    lock.unlock()
    switch admission {
    case .shown(let id): confetti_bus_reply_u32(call.invocation, id)
    case .waits: work.signal()
    case .refused(let why): refuse(call.invocation, .busy, why)
    }
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
    confetti_bus_reply_error(invocation, failure.rawValue, why)
  }

  /// The worker: shows what waits, one at a time, for ever.
  private func showWaiting() {
    while true {
      lock.lock()
      let next = queue.next()
      lock.unlock()
      guard let next else {
        work.wait()
        continue
      }
      show(next)
    }
  }

  private func show(_ entry: CelebrationQueue<UnsafeMutableRawPointer>.Entry) {
    var celebration: Celebration
    var madeAhead: Bool
    do {
      (celebration, madeAhead) = try start(entry.options)
    } catch {
      return failed(entry.id, "\(error)")
    }
    defer { celebration.close() }
    while true {
      do {
        if try celebration.waitUntilShown(timeout: Self.longestStart) { break }
        celebration.cancel()
        throw CelebrationError(
          "the celebration was not on the screen within \(Int(Self.longestStart)) s")
      } catch {
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
    let callers = queue.shown(entry.id, at: now)
    lock.unlock()
    for caller in callers { confetti_bus_reply_u32(caller, entry.id) }
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
    for caller in left { confetti_bus_reply_u32(caller, entry.id) }
  }

  /// The longest a celebration may take to be on the screen, in seconds.
  static let longestStart: Seconds = 30
  /// How long past its duration (or the default one) a celebration may stay, in seconds.
  static let longestOverrun: Seconds = 120

  private func failed(_ id: UInt32, _ why: String) {
    report("celebration \(id): \(why)")
    lock.lock()
    let callers = queue.over(id)
    lock.unlock()
    for caller in callers { refuse(caller, .desktop, oneLine(why)) }
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
      if (options.monitor ?? 1) == 1, options.reduceMotion != false {
        do {
          try ready.begin(options)
          return (ready, true)
        } catch {
          // Its overlay had ended (the display went, say): a fresh one says why, if it fails.
        }
      }
      ready.close()
    }
    return (try Celebration(options), false)
  }

  /// Makes the next standby overlay, unless there is one.
  private func makeStandby() {
    lock.lock()
    defer { lock.unlock() }
    guard standby == nil else { return }
    do {
      standby = try Celebration.standby(monitor: nil)
    } catch {
      report("no overlay made ahead: \(error)")
    }
  }
}

/// Why the service could not start or go on, in one line.
package struct ServiceError: Error, CustomStringConvertible {
  package let description: String

  init(taking message: UnsafeMutablePointer<CChar>?) {
    description = message.map { String(cString: $0) } ?? "the session bus failed"
    free(message)
  }
}
