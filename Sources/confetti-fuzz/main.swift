import ConfettiConfig
import ConfettiConfigFuzzing
import ConfettiCore
import ConfettiPresets
import Foundation

// confetti-fuzz [ITERATIONS] [SEED] [CORPUS-FOLDER]
//
// Mutates the presets and the corpus and checks every mutant with ConfigFuzzing.check. An input
// that breaks a rule, or crashes the process, is written to the corpus folder (default
// Tests/ConfettiConfigTests/ConfigCorpus), where the tests replay it once it is fixed. Inputs
// refused with a message of a shape not seen before are kept there too, so the corpus grows
// toward everything the parser can say.

let arguments = Array(CommandLine.arguments.dropFirst())
let iterations = arguments.count > 0 ? Int(arguments[0]) ?? 100_000 : 100_000
let seed = arguments.count > 1 ? UInt64(arguments[1]) ?? 1 : 1
let corpus = URL(
  fileURLWithPath: arguments.count > 2 ? arguments[2] : "Tests/ConfettiConfigTests/ConfigCorpus")

/// The input being checked, where the crash handler can reach it without allocating.
nonisolated(unsafe) var current = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 20)
nonisolated(unsafe) var currentCount = 0
nonisolated(unsafe) let crashPath = strdup(corpus.appending(path: "crash.json").path)!

// A trap (a Swift runtime failure) writes the input that caused it before the process dies.
for signal in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT] {
  Foundation.signal(signal) { number in
    let file = open(crashPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if file >= 0 {
      _ = write(file, current.baseAddress, currentCount)
      close(file)
    }
    _ = Foundation.signal(number, SIG_DFL)
    raise(number)
  }
}

try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
var pool: [[UInt8]] = Presets.names.compactMap { Presets.source(of: $0).map { Array($0.utf8) } }
for file
  in (try? FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil))
  ?? []
{
  if let data = try? Data(contentsOf: file) { pool.append(Array(data)) }
}
var seen = Set<String>()
var random = SplitMix64(seed: seed)
var kept = 0
let maximumKept = 40
for iteration in 0..<iterations {
  var input = pool.randomElement(using: &random)!
  for _ in 0..<Int.random(in: 1...4, using: &random) {
    input = ConfigFuzzing.mutate(input, using: &random)
  }
  input = Array(input.prefix(current.count))
  currentCount = input.count
  _ = current.initialize(from: input)
  let outcome = ConfigFuzzing.check(Data(input))
  if let violation = outcome.violation {
    let file = corpus.appending(path: "violation-\(seed)-\(iteration).json")
    try Data(input).write(to: file)
    print("rule broken (\(violation)): kept as \(file.path)")
    exit(1)
  }
  // Keep inputs that are refused in a way not seen yet: the message without its details.
  if let message = outcome.message, kept < maximumKept {
    let shape = message.replacing(/"[^"]*"|'[^']*'|-?[0-9][0-9.e+-]*/, with: "_")
    if seen.insert(shape).inserted {
      try Data(input).write(to: corpus.appending(path: "refused-\(seed)-\(iteration).json"))
      kept += 1
    }
  }
  if iteration % 10_000 == 0 { print("\(iteration) inputs, \(kept) kept") }
}
print("\(iterations) inputs checked, every rule held; \(kept) new refusals kept in \(corpus.path)")
