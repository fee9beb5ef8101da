/// `confetti service`'s names on the session bus: one place for the bus name, the object, the
/// interface, its errors and its options, which the service, its D-Bus files, its manual page
/// and its tests all read.
package enum ServiceInterface {
  /// The name the service owns on the user's session bus.
  package static let busName = "org.confetti.Confetti"
  package static let objectPath = "/org/confetti/Confetti"
  /// The interface, with its version in its name: a later one that changes a call is another.
  package static let interface = "org.confetti.Confetti1"

  /// systemd's user unit that keeps it running (``ServiceFile/systemdUnit``).
  package static let systemdUnit = "confetti.service"

  package static let celebrate = "Celebrate"
  /// Ends a celebration on the screen, or forgets one waiting, by its number.
  package static let cancel = "Cancel"
  /// The signal a celebration's number is sent with once it is over.
  package static let over = "Over"

  /// `Celebrate`'s options (a{sv}): the names the C and Python celebrations give them.
  package enum Option: String, CaseIterable {
    /// Every random draw comes from it: a whole number from 0 (default 1).
    case seed
    /// The monitor to cover, from 1 (default: the primary).
    case monitor
    /// How long a continuous effect is on the screen, in seconds (default 10).
    case duration
    /// true: each piece appears near where its motion would take it and fades in place;
    /// false: full motion; absent: as the desktop's own setting for fewer animations says.
    case reduceMotion = "reduce_motion"
  }

  /// The errors a call is answered with.
  package enum Failure: String {
    /// The effect cannot be used: an unknown preset, malformed JSON, a file that cannot be read.
    case effect = "org.confetti.Confetti1.Error.Effect"
    /// It cannot be shown: no desktop, no compositing window manager.
    case desktop = "org.confetti.Confetti1.Error.Desktop"
    /// Too many celebrations are waiting already.
    case busy = "org.confetti.Confetti1.Error.Busy"
    /// The celebration waited for was cancelled before it was shown (``ServiceInterface/cancel``).
    case cancelled = "org.confetti.Confetti1.Error.Cancelled"
    /// An option that is not one of ``Option``, or of the wrong type or range; a number that
    /// is no celebration's.
    case invalidArguments = "org.freedesktop.DBus.Error.InvalidArgs"
    /// A caller that is not the service's own user.
    case accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
  }

  /// The interface as D-Bus introspection describes it; GDBus refuses a call whose arguments
  /// do not match it before the service sees it.
  package static let introspection = """
    <node>
      <interface name="\(interface)">
        <method name="\(celebrate)">
          <arg name="effect" type="s" direction="in"/>
          <arg name="options" type="a{sv}" direction="in"/>
          <arg name="id" type="u" direction="out"/>
        </method>
        <method name="\(cancel)">
          <arg name="id" type="u" direction="in"/>
        </method>
        <signal name="\(over)">
          <arg name="id" type="u"/>
        </signal>
      </interface>
    </node>
    """
}

/// What a `Celebrate` call came to, for its caller (over the bus or the webhook).
package enum CelebrateAnswer: Sendable {
  /// Its celebration, by number, is on the screen.
  case shown(UInt32)
  /// Refused, with the error and why.
  case refused(ServiceInterface.Failure, String)
}
