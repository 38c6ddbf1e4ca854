import { describe, expect, it } from 'vitest'
import { PICTURE_URL_PREFIX, SLIDE_BOX_CSS, slidePicture } from './picture.js'

const svgOf = (url: string) => {
  expect(url.startsWith(PICTURE_URL_PREFIX)).toBe(true)
  return decodeURIComponent(url.slice(PICTURE_URL_PREFIX.length))
}

describe('slidePicture', () => {
  it('is an SVG data URL of the slide box: the markup inside a foreignObject, after the box and the deck stylesheet', () => {
    const svg = svgOf(slidePicture(':root{--primary:#123456}', '<p xmlns="http://www.w3.org/1999/xhtml">Hi &amp; bye</p>'))
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1280" height="720" viewBox="0 0 1280 720"><foreignObject /)
    expect(svg).toContain(
      `<style><![CDATA[${SLIDE_BOX_CSS}\n:root{--primary:#123456}]]></style><p xmlns="http://www.w3.org/1999/xhtml">Hi &amp; bye</p></div>`,
    )
    expect(svg.endsWith('</foreignObject></svg>')).toBe(true)
  })

  it('keeps a stylesheet that holds "]]>" inside its CDATA section, and escapes what a URL cannot hold', () => {
    const url = slidePicture('.a::after{content:"]]><script>x</script>"}', '')
    expect(url).not.toMatch(/[<>"#\s]/)
    const svg = svgOf(url)
    // The only way out of a CDATA section is its end: each "]]>" of the text is split across two sections.
    expect(svg).toContain('content:"]]]]><![CDATA[><script>x</script>"}]]></style>')
    expect(svg.match(/<!\[CDATA\[/g)).toHaveLength(2)
  })
})
