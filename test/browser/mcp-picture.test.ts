/**
 * The MCP server's agent loop with a browser (issue 34's "write a slide,
 * check it, get its picture as image content"): the SDK's own client over
 * `/mcp` (the emulator's socket-free fetch), the emulator the Node entry
 * builds with its real slide checker, headless Chromium for the picture.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { CHROMIUM_PATH } from './support/browser.js'
import { colourStats, decodePng, pixelAt } from './support/png.js'

/** Half the slide red, so a picture of it cannot be one flat colour. */
const HALF_RED = `export default function HalfRed() {
  return (
    <section style={{ position: "absolute", inset: 0, display: "flex" }}>
      <div style={{ width: 640, height: 720, background: "#d11a2a" }} />
      <h1 style={{ fontSize: 64, margin: 40 }}>Half red</h1>
    </section>
  );
}
`

describe('the MCP agent loop: write, check, look', () => {
  let emulator: PresentationEmulator
  let client: Client

  beforeAll(async () => {
    emulator = createEmulator({ clock: 'manual', chromiumPath: CHROMIUM_PATH })
    client = new Client({ name: 'mcp-picture-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', emulator.emulator.baseUrl), { fetch: emulator.fetch }))
  })

  afterAll(async () => {
    await client?.close()
    await emulator?.close()
  })

  it('answers slide_picture with a PNG of the slide as image content, at the width asked for', async () => {
    const created = await client.callTool({
      name: 'createSlide',
      arguments: { slug: 'welcome-deck', body: { name: 'Half red', files: { 'slide.tsx': HALF_RED } } },
    })
    expect(created.isError).toBeFalsy()
    const { slideId } = created.structuredContent as { slideId: string }

    const checked = await client.callTool({ name: 'check_slides', arguments: { slug: 'welcome-deck', slideIds: [slideId] } })
    expect(checked.isError).toBeFalsy()
    expect((checked.structuredContent as { slides: Array<{ status: string; text: string }> }).slides[0]).toMatchObject({
      status: 'rendered',
      text: 'Half red',
    })

    const picture = await client.callTool({ name: 'slide_picture', arguments: { slug: 'welcome-deck', slideId, width: 640 } })
    expect(picture.isError).toBeFalsy()
    const [image] = picture.content as Array<{ type: string; data: string; mimeType: string }>
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' })
    const png = decodePng(Buffer.from(image!.data, 'base64'))
    expect([png.width, png.height]).toEqual([640, 360])
    expect(colourStats(png).colours).toBeGreaterThan(2)
    const [red, green, blue] = pixelAt(png, 40, 180)
    expect(red).toBeGreaterThan(180)
    expect(green + blue).toBeLessThan(120)

    // A slide that does not render: a tool error as check_slides reports it, not an image.
    await client.callTool({
      name: 'updateSlide',
      arguments: {
        slug: 'welcome-deck',
        slideId,
        body: { files: { 'slide.tsx': 'export default function B() { return (undefined as any).x }\n' } },
      },
    })
    const refused = await client.callTool({ name: 'slide_picture', arguments: { slug: 'welcome-deck', slideId } })
    expect(refused.isError).toBe(true)
    expect(refused.structuredContent).toMatchObject({ status: 400, errorCode: 'SLIDE_DOES_NOT_RENDER' })
  })
})
