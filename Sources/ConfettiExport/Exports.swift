// What a render's settings speak in beyond `import Confetti`: a picture's size in pixels
// (RenderOptions.size), so that a host names it without importing the GL layer.
@_exported import struct ConfettiGL.PixelSize
