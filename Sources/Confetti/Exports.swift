// One import for a host program: `import Confetti` brings the facade (``ConfettiSystem``,
// ``Effect``) and the types it takes and returns, and nothing else of the layers under it (the
// renderer, the records, the schema, the test hooks stay theirs). Every name here is in the
// documentation catalog (Confetti.docc), and a test fails when one appears that it does not
// mention.

@_exported import enum ConfettiCore.Blend
@_exported import struct ConfettiCore.CellConfig
@_exported import struct ConfettiCore.ConfigError
// Effects: a configuration and its parts, the presets, colours.
@_exported import struct ConfettiCore.EffectConfig
@_exported import enum ConfettiCore.Emission
@_exported import struct ConfettiCore.EmitterConfig
@_exported import enum ConfettiCore.EmitterShape
@_exported import enum ConfettiCore.EmitterTrigger
@_exported import struct ConfettiCore.Floor
@_exported import enum ConfettiCore.GravityUnit
// Time: a clock a host can pause, slow and run back.
@_exported import struct ConfettiCore.PlaybackClock
@_exported import struct ConfettiCore.RGBA8
@_exported import enum ConfettiCore.ShapeChoice
@_exported import enum ConfettiCore.SpeedUnit
@_exported import struct ConfettiCore.Varied
@_exported import enum ConfettiCore.VelocityUnit
@_exported import enum ConfettiGL.GLError
@_exported import enum ConfettiGL.GLFrame
@_exported import struct ConfettiGL.GLInfo
@_exported import enum ConfettiGL.GLStatePolicy
// Drawing with no window: a context, a picture to draw into, and PNG files.
@_exported import class ConfettiGL.HeadlessContext
@_exported import class ConfettiGL.OffscreenTarget
// Drawing: where, as what, and what happens to the host's GL state.
@_exported import struct ConfettiGL.PixelRect
@_exported import enum ConfettiGL.SpritePrimitive
@_exported import enum ConfettiImage.PNG
@_exported import struct ConfettiImage.PNGError
@_exported import struct ConfettiImage.RGBAImage
@_exported import enum ConfettiPresets.Presets
