extension PixelSize {
  /// Why a GL could not draw a framebuffer this size, in one line naming it as `option`; nil
  /// where one could.
  package func drawableRefusal(as option: String) -> String? {
    guard width > Self.largest || height > Self.largest else { return nil }
    return
      "\(option) \(self) is larger than any GL can draw (\(Self.largest)x\(Self.largest) at most)"
  }
}
