import ConfettiCelebration
import ConfettiCore

/// The rule by which `confetti service` turns a flood of calls into a few celebrations: one
/// overlay at a time, and a call that asks for what is already coming joins it.
///
/// - A call that asks for exactly what is on the screen (the same effect and options) joins
///   it while it has not been shown for longer than ``joinWindow``: it is answered with that
///   celebration, and nothing more is thrown.
/// - A call that asks for what is already waiting joins that.
/// - Anything else waits its turn, behind at most ``mostWaiting`` others; beyond them it is
///   refused, saying so.
/// - A waiting celebration whose callers have all gone (timed out, ended) is forgotten, and any
///   may be cancelled by its number.
///
/// Pure: it holds callers and decides; ``SessionService`` shows, answers and signals.
package struct CelebrationQueue<Caller> {
  /// How many different celebrations may wait behind the one on the screen.
  package static var mostWaiting: Int { 4 }
  /// How long after a celebration is shown a call for the same one still joins it, in seconds.
  package static var joinWindow: Seconds { 1 }

  /// One celebration: its number, what it shows, and the calls it answers.
  package struct Entry {
    package let id: UInt32
    package let options: CelebrationOptions
    package fileprivate(set) var callers: [Caller]
  }

  /// What becomes of a call.
  package enum Admission {
    /// Answer it now with this celebration, on the screen already.
    case shown(UInt32)
    /// It is answered once its celebration is shown (``shown(_:at:)``) or has failed.
    case waits
    /// Refused, for this reason.
    case refused(String)
  }

  private var showing: Entry?
  private var shownAt: Seconds?
  /// The one on the screen was cancelled: nothing joins it any more.
  private var ending = false
  private var waiting: [Entry] = []
  private var lastID: UInt32 = 0

  package init() {}

  /// The celebrations waiting their turn, not counting the one on the screen.
  package var waitingCount: Int { waiting.count }

  /// A call for `options` at clock reading `now`.
  package mutating func admit(
    _ options: CelebrationOptions, from caller: Caller, at now: Seconds
  ) -> Admission {
    if var current = showing, current.options == options, !ending {
      guard let shownAt else {
        current.callers.append(caller)
        showing = current
        return .waits
      }
      if now - shownAt <= Self.joinWindow { return .shown(current.id) }
    }
    if let index = waiting.firstIndex(where: { $0.options == options }) {
      waiting[index].callers.append(caller)
      return .waits
    }
    guard waiting.count < Self.mostWaiting else {
      return .refused(
        "\(Self.mostWaiting) other celebrations are waiting already; try again once one is over")
    }
    lastID = lastID == UInt32.max ? 1 : lastID + 1
    waiting.append(Entry(id: lastID, options: options, callers: [caller]))
    return .waits
  }

  /// The next celebration to show, now on the screen; nil while one is, or none waits.
  package mutating func next() -> Entry? {
    guard showing == nil, !waiting.isEmpty else { return nil }
    showing = waiting.removeFirst()
    (shownAt, ending) = (nil, false)
    return showing
  }

  /// The one on the screen was shown at `now`: the calls to answer with its number.
  package mutating func shown(_ id: UInt32, at now: Seconds) -> [Caller] {
    guard var current = showing, current.id == id else { return [] }
    let callers = current.callers
    current.callers = []
    (showing, shownAt) = (current, now)
    return callers
  }

  /// Forgets the calls whose callers have gone (`gone`), and every waiting celebration left
  /// with none: nobody waits for it. Returns the calls forgotten, which must still be let go
  /// of. (The one on the screen goes on.)
  package mutating func forget(_ gone: (Caller) -> Bool) -> [Caller] {
    var forgotten: [Caller] = []
    if var current = showing {
      forgotten += current.callers.filter(gone)
      current.callers.removeAll(where: gone)
      showing = current
    }
    for index in waiting.indices {
      forgotten += waiting[index].callers.filter(gone)
      waiting[index].callers.removeAll(where: gone)
    }
    waiting.removeAll { $0.callers.isEmpty }
    return forgotten
  }

  /// What cancelling celebration `id` means.
  package enum Cancelling {
    /// It is on the screen (or starting): end it; its end answers its calls.
    case showing
    /// It was waiting: it is forgotten, and these calls are to be told it was cancelled.
    case waited([Caller])
    /// No celebration of that number is on the screen or waiting.
    case unknown
  }

  /// Cancels celebration `id`.
  package mutating func cancel(_ id: UInt32) -> Cancelling {
    if showing?.id == id {
      ending = true
      return .showing
    }
    guard let index = waiting.firstIndex(where: { $0.id == id }) else { return .unknown }
    return .waited(waiting.remove(at: index).callers)
  }

  /// The one on the screen is over (or could not be shown): the calls still unanswered.
  package mutating func over(_ id: UInt32) -> [Caller] {
    guard let current = showing, current.id == id else { return [] }
    (showing, shownAt) = (nil, nil)
    return current.callers
  }
}
