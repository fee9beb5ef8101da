import ArgumentParser
import ConfettiService

/// `confetti service`: celebrations for any program, over the user's session bus.
struct ServiceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "service",
    abstract: "Celebrate for any program that asks over D-Bus, until stopped.",
    discussion: """
      \(ServiceInterface.interface).\(ServiceInterface.celebrate)(effect, options) on \
      \(ServiceInterface.busName), for your user's programs: see docs/service.md.
      """
  )
  @Option(help: "Print a file that starts it: dbus-service, systemd-unit.") var print: ServiceFile?
  @Option(help: "Also take calls over HTTP on this port of 127.0.0.1.") var webhook: UInt16?

  func run() throws {
    try reportingFailures {
      guard let print else { return try SessionService.run(webhook: webhook, report: { say($0) }) }
      Swift.print(print.text(program: ServiceFile.thisProgram), terminator: "")
    }
  }
}

extension ServiceFile: ExpressibleByArgument {}
