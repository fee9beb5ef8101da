// libconfetti: the C interface of confetti.h over ConfettiSystem. Each entry point checks its
// arguments, translates them and calls the facade; nothing here decides anything about
// particles, so a C host draws the frames a Swift host draws.
import CConfetti
import Confetti
import ConfettiCore
import ConfettiGL
import FoundationEssentials
import Glibc
import Synchronization

// MARK: - Systems

@_cdecl("confetti_version")
public func confetti_version() -> UnsafePointer<CChar> {
  LastError.clear()
  return Handles.version
}

@_cdecl("confetti_last_error")
public func confetti_last_error() -> UnsafePointer<CChar> {
  LastError.message
}

@_cdecl("confetti_create")
public func confetti_create(
  _ desc: UnsafePointer<confetti_desc>?, _ system: UnsafeMutablePointer<OpaquePointer?>?
) -> confetti_status {
  calling {
    guard let desc = desc?.pointee else { throw CallError.argument("the description is null") }
    guard let system else { throw CallError.argument("the pointer for the new system is null") }
    let size = try checkedSize(desc.width, desc.height)
    guard desc.capacity >= 0 else {
      throw CallError.argument(
        "the capacity must be 0 (the effect's own) or more, not \(desc.capacity)")
    }
    let unknownFlags =
      desc.flags & ~UInt32(CONFETTI_REDUCE_MOTION | CONFETTI_CACHE_GL_STATE) & ~primitiveFlags
    guard unknownFlags == 0 else {
      throw CallError.argument("unknown flags 0x\(String(unknownFlags, radix: 16))")
    }
    guard let capacity = Int(exactly: desc.capacity) else {
      throw CallError.argument("the capacity \(desc.capacity) does not fit this machine's integers")
    }
    let confetti = try ConfettiSystem(
      effect: try effect(of: desc), size: size, capacity: capacity == 0 ? nil : capacity,
      seed: desc.seed == 0 ? 1 : desc.seed,
      reduceMotion: desc.flags & UInt32(CONFETTI_REDUCE_MOTION) != 0,
      primitive: try primitive(desc.flags))
    if desc.flags & UInt32(CONFETTI_CACHE_GL_STATE) != 0 { confetti.glStatePolicy = .cache }
    system.pointee = Handles.add(confetti)
  }
}

/// The flags that name a primitive.
let primitiveFlags = UInt32(CONFETTI_POINTS | CONFETTI_INSTANCED_POINTS | CONFETTI_QUADS)

/// The primitive `flags` name (at most one), or auto.
func primitive(_ flags: UInt32) throws -> SpritePrimitive {
  switch flags & primitiveFlags {
  case 0: .auto
  case UInt32(CONFETTI_POINTS): .points
  case UInt32(CONFETTI_INSTANCED_POINTS): .instancedPoints
  case UInt32(CONFETTI_QUADS): .quads
  default:
    throw CallError.argument(
      "give at most one of CONFETTI_POINTS, CONFETTI_INSTANCED_POINTS and CONFETTI_QUADS")
  }
}

@_cdecl("confetti_set_cache_gl_state")
public func confetti_set_cache_gl_state(_ system: OpaquePointer?, _ cache: Int32)
  -> confetti_status
{
  calling {
    try Handles.using(system) { $0.glStatePolicy = cache != 0 ? .cache : .restore }
  }
}

@_cdecl("confetti_set_backdrop")
public func confetti_set_backdrop(
  _ system: OpaquePointer?, _ red: Double, _ green: Double, _ blue: Double
) -> confetti_status {
  calling {
    let components = [red, green, blue]
    guard components.allSatisfy({ $0.isFinite && (0...1).contains($0) }) else {
      throw CallError.argument(
        "a backdrop's red, green and blue are from 0 to 1, not "
          + components.map { String(formatting: "%g", $0) }.joined(separator: ", "))
    }
    let bytes = components.map { UInt8(($0 * 255).rounded()) }
    try Handles.using(system) {
      $0.backdrop = RGBA8(red: bytes[0], green: bytes[1], blue: bytes[2])
    }
  }
}

@_cdecl("confetti_close")
public func confetti_close(_ system: OpaquePointer?) -> confetti_status {
  calling {
    let confetti = try Handles.remove(system)  // refused while another thread uses it
    // Without its own context current, its GL objects are left to that context's destruction.
    confetti.close()
  }
}

/// confetti_close, by its name before 0.6.
@_cdecl("confetti_destroy")
public func confetti_destroy(_ system: OpaquePointer?) -> confetti_status {
  confetti_close(system)
}

// MARK: - Emission

@_cdecl("confetti_trigger")
public func confetti_trigger(
  _ system: OpaquePointer?, _ trigger: confetti_trigger_type, _ time: Double
) -> confetti_status {
  calling {
    try Handles.using(system) { confetti in
      confetti.trigger(try emitterTrigger(trigger), time: try checkedTime(time))
    }
  }
}

@_cdecl("confetti_trigger_at")
public func confetti_trigger_at(
  _ system: OpaquePointer?, _ trigger: confetti_trigger_type, _ x: Double, _ y: Double,
  _ time: Double
) -> confetti_status {
  calling {
    try Handles.using(system) { confetti in
      let largest = ConfettiSystem.largestSide
      guard abs(x) <= largest, abs(y) <= largest else {
        throw CallError.argument(
          "a trigger's place is points within \(Int(largest)) of the corner, not (\(x), \(y))")
      }
      confetti.trigger(
        try emitterTrigger(trigger), at: Point(x: x, y: y), time: try checkedTime(time))
    }
  }
}

@_cdecl("confetti_fire_opening")
public func confetti_fire_opening(_ system: OpaquePointer?, _ time: Double) -> confetti_status {
  calling {
    let time = try checkedTime(time)
    try Handles.using(system) { $0.fireOpening(time: time) }
  }
}

@_cdecl("confetti_stop_emitting")
public func confetti_stop_emitting(_ system: OpaquePointer?) -> confetti_status {
  calling { try Handles.using(system) { $0.stopEmitting() } }
}

@_cdecl("confetti_advance")
public func confetti_advance(_ system: OpaquePointer?, _ time: Double) -> confetti_status {
  calling {
    let time = try checkedTime(time)
    try Handles.using(system) { $0.advance(to: time) }
  }
}

@_cdecl("confetti_clear")
public func confetti_clear(_ system: OpaquePointer?, _ keepStartEmitters: Bool) -> confetti_status {
  calling { try Handles.using(system) { $0.clear(keepingStartEmitters: keepStartEmitters) } }
}

@_cdecl("confetti_reset_gl_state_cache")
public func confetti_reset_gl_state_cache(_ system: OpaquePointer?) -> confetti_status {
  calling { try Handles.using(system) { $0.resetGLStateCache() } }
}

@_cdecl("confetti_resize")
public func confetti_resize(_ system: OpaquePointer?, _ width: Double, _ height: Double)
  -> confetti_status
{
  calling {
    try Handles.using(system) { confetti in
      try confetti.resize(to: try checkedSize(width, height))
    }
  }
}

/// confetti_resize, by its name before 0.6.
@_cdecl("confetti_set_size")
public func confetti_set_size(_ system: OpaquePointer?, _ width: Double, _ height: Double)
  -> confetti_status
{
  confetti_resize(system, width, height)
}

// MARK: - Drawing

@_cdecl("confetti_draw")
public func confetti_draw(
  _ system: OpaquePointer?, _ x: Int32, _ y: Int32, _ width: Int32, _ height: Int32,
  _ time: Double
) -> confetti_status {
  calling {
    try Handles.using(system) { confetti in
      guard width >= 0, height >= 0 else {
        throw CallError.argument(
          "a rectangle's width and height are 0 or more, not \(width)×\(height)")
      }
      let time = try checkedTime(time)
      if let why = confetti.forkedAway { throw GLError.noContext(why) }
      guard GLInfo.isContextCurrent else {
        throw GLError.noContext(
          "no OpenGL context is current on this thread: make the one the system was made on "
            + "current first")
      }
      let rect = PixelRect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
      try confetti.draw(in: rect, time: time)
    }
  }
}

// MARK: - Questions

@_cdecl("confetti_is_alive")
public func confetti_is_alive(
  _ system: OpaquePointer?, _ time: Double, _ alive: UnsafeMutablePointer<Bool>?
) -> confetti_status {
  calling {
    try Handles.using(system) { confetti in
      let time = try checkedTime(time)
      try answer(alive).pointee = confetti.isAlive(time: time)
    }
  }
}

@_cdecl("confetti_end_time")
public func confetti_end_time(_ system: OpaquePointer?, _ end: UnsafeMutablePointer<Double>?)
  -> confetti_status
{
  calling {
    try Handles.using(system) { confetti in
      try answer(end).pointee = confetti.endTime ?? .infinity
    }
  }
}

@_cdecl("confetti_alive_count")
public func confetti_alive_count(
  _ system: OpaquePointer?, _ time: Double, _ count: UnsafeMutablePointer<Int64>?
) -> confetti_status {
  calling {
    try Handles.using(system) { confetti in
      let time = try checkedTime(time)
      try answer(count).pointee = Int64(confetti.aliveCount(time: time))
    }
  }
}

@_cdecl("confetti_capacity")
public func confetti_capacity(_ system: OpaquePointer?, _ capacity: UnsafeMutablePointer<Int64>?)
  -> confetti_status
{
  calling {
    try Handles.using(system) { confetti in
      try answer(capacity).pointee = Int64(confetti.capacity)
    }
  }
}

@_cdecl("confetti_has_trigger")
public func confetti_has_trigger(
  _ system: OpaquePointer?, _ trigger: confetti_trigger_type, _ has: UnsafeMutablePointer<Bool>?
) -> confetti_status {
  calling {
    try Handles.using(system) { confetti in
      let kind = try emitterTrigger(trigger)
      try answer(has).pointee = confetti.has(kind)
    }
  }
}

@_cdecl("confetti_dropped_count")
public func confetti_dropped_count(
  _ system: OpaquePointer?, _ count: UnsafeMutablePointer<Int64>?
) -> confetti_status {
  calling {
    try Handles.using(system) { confetti in
      try answer(count).pointee = Int64(confetti.droppedCount)
    }
  }
}

// MARK: - Arguments

/// A refusal of the C layer's own: an argument the facade would stop the program for, or a
/// failure the layer names its status for.
enum CallError: Error, CustomStringConvertible {
  case argument(String)
  case handle(String)
  case desktop(String)
  case output(String)
  case stopped(String)
  case busy(String)
  case flashes(String)

  var description: String {
    switch self {
    case .argument(let why), .handle(let why), .desktop(let why), .output(let why),
      .stopped(let why), .busy(let why), .flashes(let why):
      return why
    }
  }

  var status: confetti_status {
    switch self {
    case .argument: CONFETTI_ERROR_ARGUMENT
    case .handle: CONFETTI_ERROR_HANDLE
    case .desktop: CONFETTI_ERROR_DESKTOP
    case .output: CONFETTI_ERROR_OUTPUT
    case .stopped: CONFETTI_STOPPED
    case .busy: CONFETTI_ERROR_BUSY
    case .flashes: CONFETTI_FLASHES
    }
  }
}

/// Runs one entry point's body: its error becomes a status and this thread's last error.
func calling(_ body: () throws -> Void) -> confetti_status {
  do {
    try body()
    LastError.clear()
    return CONFETTI_OK
  } catch {
    LastError.set("\(error)")
    switch error {
    case let refusal as CallError: return refusal.status
    case is GLError: return CONFETTI_ERROR_GL
    default: return CONFETTI_ERROR_EFFECT
    }
  }
}

private func checkedTime(_ time: Double) throws -> Seconds {
  guard Tick.isValid(reading: time) else {
    throw CallError.argument(
      "a time is a clock reading in seconds, \(Tick.validReadings), not \(time)")
  }
  return time
}

private func checkedSize(_ width: Double, _ height: Double) throws -> Size {
  let size = Size(width: width, height: height)
  guard ConfettiSystem.isValid(size), width > 0, height > 0 else {
    throw CallError.argument(
      "the effect's width and height are points, greater than 0 and at most "
        + "\(Int(ConfettiSystem.largestSide)), not \(width)×\(height)")
  }
  return size
}

private func answer<T>(_ pointer: UnsafeMutablePointer<T>?) throws -> UnsafeMutablePointer<T> {
  guard let pointer else { throw CallError.argument("the pointer for the answer is null") }
  return pointer
}

private func emitterTrigger(_ trigger: confetti_trigger_type) throws -> EmitterTrigger {
  switch trigger {
  case CONFETTI_TRIGGER_START: return .start
  case CONFETTI_TRIGGER_CLICK: return .click
  case CONFETTI_TRIGGER_KEY: return .key
  default:
    throw CallError.argument(
      "unknown trigger \(Int32(bitPattern: UInt32(trigger.rawValue))): CONFETTI_TRIGGER_START, _CLICK or _KEY"
    )
  }
}

/// The effect a description names: a preset, JSON text or a file (by default,
/// ``Presets/defaultName``).
private func effect(of desc: confetti_desc) throws -> Effect {
  try effect(preset: desc.preset, json: desc.json, path: desc.path)
}

/// The effect one of `preset`, `json` and `path` names (none: the preset `fallback`).
func effect(
  preset: UnsafePointer<CChar>?, json: UnsafePointer<CChar>?, path: UnsafePointer<CChar>?,
  fallback: String = Presets.defaultName
) throws -> Effect {
  let sources = [preset, json, path].compactMap { $0 }
  guard sources.count <= 1 else {
    throw CallError.argument(
      "give the effect as one of preset, json and path, not \(sources.count)")
  }
  if let json { return try Effect(json: try text(json, "the effect's JSON")) }
  if let path { return try Effect(path: try text(path, "the effect's path")) }
  return try Effect.preset(try preset.map { try text($0, "the preset's name") } ?? fallback)
}

/// `pointer`'s C string, refused unless it is UTF-8 (`what` names it in the message).
func text(_ pointer: UnsafePointer<CChar>, _ what: String) throws -> String {
  let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer))
  guard let text = String(validating: bytes.lazy.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  else { throw CallError.argument("\(what) is not UTF-8 text") }
  return text
}

// MARK: - Handles and errors

/// Live objects by handle: a handle is a number, counted up and never used again, shown to C
/// as a pointer it cannot look inside, so a destroyed or made-up one is found missing, not
/// followed. `name` says what it is in messages ("system"), and `remade` how to get a new one.
final class HandleTable<Value: AnyObject>: Sendable {
  /// An object, sendable between the threads that call in (each is used by one thread at a
  /// time, as confetti.h says).
  private final class Entry: @unchecked Sendable {
    let value: Value
    /// Whether a call is using it now.
    let busy = Atomic<Bool>(false)
    init(_ value: Value) { self.value = value }
  }

  private let table = Mutex<(next: UInt, live: [UInt: Entry])>((1, [:]))
  private let name: String
  private let remade: String
  private let maker: String

  init(name: String, remade: String, maker: String) {
    (self.name, self.remade, self.maker) = (name, remade, maker)
  }

  func add(_ value: Value) -> OpaquePointer {
    let entry = Entry(value)
    let id = table.withLock { table in
      let id = table.next
      table.next += 1
      table.live[id] = entry
      return id
    }
    return OpaquePointer(bitPattern: id)!
  }

  func find(_ handle: OpaquePointer?) throws -> Value {
    let id = try number(handle)
    guard let entry = table.withLock({ $0.live[id] }) else { throw missing(id) }
    return entry.value
  }

  func remove(_ handle: OpaquePointer?) throws -> Value {
    let id = try number(handle)
    guard let entry = table.withLock({ $0.live.removeValue(forKey: id) }) else {
      throw missing(id)
    }
    return entry.value
  }

  /// Runs `body` with the object, which no other call may use meanwhile: confetti.h's rule of
  /// one thread at a time, checked on entry, so that a host that breaks it gets
  /// CONFETTI_ERROR_BUSY instead of memory corruption.
  func using<T>(_ handle: OpaquePointer?, _ body: (Value) throws -> T) throws -> T {
    let entry = try take(handle)
    defer { entry.busy.store(false, ordering: .releasing) }
    return try body(entry.value)
  }

  /// Removes the object, unless another call is using it.
  func removeUnused(_ handle: OpaquePointer?) throws -> Value {
    let entry = try take(handle)
    let id = try number(handle)
    _ = table.withLock { $0.live.removeValue(forKey: id) }
    return entry.value
  }

  /// The live entry of `handle`, marked busy; throws when it is not live, or busy already.
  private func take(_ handle: OpaquePointer?) throws -> Entry {
    let id = try number(handle)
    guard let entry = table.withLock({ $0.live[id] }) else { throw missing(id) }
    guard entry.busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    else {
      throw CallError.busy(
        "another thread is using this \(name) now: confetti.h allows one thread at a time "
          + "with each")
    }
    return entry
  }

  private func number(_ handle: OpaquePointer?) throws -> UInt {
    guard let handle else { throw CallError.handle("the \(name) is null") }
    return UInt(bitPattern: handle)
  }

  private func missing(_ id: UInt) -> CallError {
    let made = table.withLock { $0.next }
    return CallError.handle(
      id < made ? "the \(name) was destroyed: \(remade)" : "not a \(name) made by \(maker)")
  }
}

/// The live systems.
private enum Handles {
  static let systems = HandleTable<ConfettiSystem>(
    name: "system", remade: "make a new one with confetti_create", maker: "confetti_create")

  // Never written: a C string for the life of the process.
  nonisolated(unsafe) static let version: UnsafePointer<CChar> = {
    UnsafePointer(strdup(ConfettiVersion.current)!)
  }()

  static func add(_ system: ConfettiSystem) -> OpaquePointer { systems.add(system) }
  static func using<T>(_ handle: OpaquePointer?, _ body: (ConfettiSystem) throws -> T) throws
    -> T
  { try systems.using(handle, body) }
  static func remove(_ handle: OpaquePointer?) throws -> ConfettiSystem {
    try systems.removeUnused(handle)
  }
}

/// The message of this thread's last call, kept for confetti_last_error() until the next.
private enum LastError {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { free($0) }
    return key
  }()

  nonisolated(unsafe) private static let empty: UnsafePointer<CChar> = UnsafePointer(strdup("")!)

  static var message: UnsafePointer<CChar> {
    pthread_getspecific(key).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) }
      ?? empty
  }

  /// Keeps `text` as one line: what some input brought in that cannot be seen or breaks the
  /// line (a newline in a preset's name, a line separator in a file name) is an escape.
  static func set(_ text: String) {
    let line = oneLine(text)
    free(pthread_getspecific(key))
    pthread_setspecific(key, strdup(line))
  }

  static func clear() {
    guard let old = pthread_getspecific(key) else { return }
    free(old)
    pthread_setspecific(key, nil)
  }
}
