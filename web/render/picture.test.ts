import { describe, expect, it } from 'vitest'
import { PICTURE_DROPPED_PROPERTIES, PICTURE_STILL_CSS, PICTURE_URL_PREFIX, SLIDE_BOX_CSS, slidePicture } from './picture.js'

const svgOf = (url: string) => {
  expect(url.startsWith(PICTURE_URL_PREFIX)).toBe(true)
  return decodeURIComponent(url.slice(PICTURE_URL_PREFIX.length))
}

describe('slidePicture', () => {
  it('is an SVG data URL of the slide box: the markup inside a foreignObject, after the box and the deck stylesheet', () => {
    const svg = svgOf(slidePicture(':root{--primary:#123456}', '<p xmlns="http://www.w3.org/1999/xhtml">Hi &amp; bye</p>'))
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1280" height="720" viewBox="0 0 1280 720"><foreignObject /)
    expect(svg).toContain(
      `<style><![CDATA[${PICTURE_STILL_CSS}\n${SLIDE_BOX_CSS}\n:root{--primary:#123456}]]></style><p xmlns="http://www.w3.org/1999/xhtml">Hi &amp; bye</p></div>`,
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

  it('begins with the still rules: an anonymous layer, every dropped property !important on every element and pseudo-element', () => {
    const svg = svgOf(slidePicture('.a{animation:spin 50ms infinite!important}', ''))
    expect(svg.indexOf(PICTURE_STILL_CSS)).toBe(svg.indexOf('<style><![CDATA[') + '<style><![CDATA['.length)
    // Anonymous: a slide cannot add rules of its own to it by naming it.
    expect(PICTURE_STILL_CSS).toMatch(/^@layer\{/)
    for (const selector of ['*', '*::before', '*::after', '*::marker']) {
      const rule = PICTURE_STILL_CSS.match(new RegExp(`(?:^@layer\\{|\\})${selector.replaceAll('*', '\\*')}\\{([^}]*)\\}`))
      expect(rule, selector).not.toBeNull()
      for (const name of PICTURE_DROPPED_PROPERTIES)
        expect(rule![1], `${selector} ${name}`).toMatch(new RegExp(`(^|;)${name}:[a-z]+!important`))
    }
  })
})
