import ConfettiGL
import ConfettiPlatform

extension BenchPlan {
  /// The particle counts of a sweep written as `text`: whole numbers separated by commas, like
  /// 1000,10000 (spaces around each allowed); nil where it is not.
  package static func counts(listed text: String) -> [Int]? {
    let counts = text.split(separator: ",", omittingEmptySubsequences: false).map {
      Int($0.trimmed)
    }
    guard !counts.isEmpty, counts.allSatisfy({ $0 != nil }) else { return nil }
    return counts.map { $0! }
  }

  /// Why one of `counts` cannot be benched, in one line naming the count as `option`: each
  /// must be 1 to the most particles whose records fit one GL buffer. Nil where all can.
  package static func countRefusal(_ counts: [Int], naming option: String) -> String? {
    let most = ParticleRenderer.maximumCapacity
    guard let count = counts.first(where: { !(1...most).contains($0) }) else { return nil }
    return "the particle count (\(option)) must be between 1 and \(most) "
      + "(the records of at most \(most) fit one GL buffer), not \(count)"
  }
}
