/**
 * A small PNG decoder for the tests (no PNG package is installed): the
 * signature, IHDR, the IDAT chunks inflated with node:zlib, and the five
 * scanline filters undone, for 8-bit truecolour with or without alpha
 * (what Chromium's screenshots are). Anything else is refused, so a test
 * never reads pixels it did not understand.
 */
import { inflateSync } from 'node:zlib'

export interface DecodedPng {
  width: number
  height: number
  /** Bytes per pixel: 3 (RGB) or 4 (RGBA). */
  channels: number
  /** The pixels, row after row, `channels` bytes each. */
  pixels: Uint8Array
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** Decodes `png`; throws on anything that is not an 8-bit RGB or RGBA PNG, non-interlaced. */
export function decodePng(png: Uint8Array): DecodedPng {
  if (png.length < 8 || SIGNATURE.some((byte, i) => png[i] !== byte)) throw new Error('not a PNG: no signature')
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  let offset = 8
  let width = 0
  let height = 0
  let channels = 0
  const data: Uint8Array[] = []
  while (offset + 8 <= png.length) {
    const length = view.getUint32(offset)
    const type = String.fromCharCode(...png.slice(offset + 4, offset + 8))
    const body = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8)
      height = view.getUint32(offset + 12)
      const [depth, colour, , , interlace] = body.slice(8, 13)
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`)
      }
      channels = colour === 6 ? 4 : 3
    } else if (type === 'IDAT') data.push(body)
    else if (type === 'IEND') break
    offset += 12 + length
  }
  if (width === 0 || channels === 0) throw new Error('not a PNG: no IHDR')
  const raw = inflateSync(Buffer.concat(data))
  const stride = width * channels
  if (raw.length !== height * (stride + 1)) throw new Error(`PNG data of ${raw.length} bytes for ${width} × ${height}`)
  const pixels = new Uint8Array(height * stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    const out = y * stride
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[out + x - channels]! : 0
      const b = y > 0 ? pixels[out - stride + x]! : 0
      const c = x >= channels && y > 0 ? pixels[out - stride + x - channels]! : 0
      let predicted: number
      switch (filter) {
        case 0:
          predicted = 0
          break
        case 1:
          predicted = a
          break
        case 2:
          predicted = b
          break
        case 3:
          predicted = (a + b) >> 1
          break
        case 4: {
          const p = a + b - c
          const pa = Math.abs(p - a)
          const pb = Math.abs(p - b)
          const pc = Math.abs(p - c)
          predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
          break
        }
        default:
          throw new Error(`unknown PNG filter ${filter}`)
      }
      pixels[out + x] = (line[x]! + predicted) & 0xff
    }
  }
  return { width, height, channels, pixels }
}

/** The RGB of the pixel at (x, y). */
export function pixelAt(png: DecodedPng, x: number, y: number): [number, number, number] {
  const at = (y * png.width + x) * png.channels
  return [png.pixels[at]!, png.pixels[at + 1]!, png.pixels[at + 2]!]
}

/** How many distinct RGB colours the picture has, and the variance of its brightness (0 for a flat colour). */
export function colourStats(png: DecodedPng): { colours: number; variance: number } {
  const seen = new Set<number>()
  let sum = 0
  let squares = 0
  const n = png.width * png.height
  for (let i = 0; i < n; i++) {
    const at = i * png.channels
    const [r, g, b] = [png.pixels[at]!, png.pixels[at + 1]!, png.pixels[at + 2]!]
    seen.add((r << 16) | (g << 8) | b)
    const light = (r + g + b) / 3
    sum += light
    squares += light * light
  }
  const mean = sum / n
  return { colours: seen.size, variance: squares / n - mean * mean }
}
