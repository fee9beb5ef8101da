// One import for a host program: `import Confetti` brings the facade (``ConfettiSystem``,
// ``Effect``) and the value types it speaks in (points, sizes, triggers, configurations,
// presets, pixel rectangles, pictures). The layers under it are libraries of their own too.
@_exported import ConfettiConfig
@_exported import ConfettiCore
@_exported import ConfettiGL
@_exported import ConfettiImage
@_exported import ConfettiPresets
