/**
 * What a slide's component may count on wherever it renders (the editor,
 * the sites, a slide check): the box it lays out in, the modules it may
 * import, and how long it may run. The core states them (the slide guide
 * and the `PUT` hints quote them); the web room's renderer enforces them.
 */

/** How long one slide's component may run, from the moment its code starts (after its worker has loaded React), before its worker is ended. */
export const RENDER_TIMEOUT_MS = 2_000

/** The slide's box, in CSS pixels: a component lays out in it, and each view scales it to fit. */
export const SLIDE_WIDTH = 1280
export const SLIDE_HEIGHT = 720

/** What `slide.tsx` may import; any other module is an error naming it and listing these. */
export const SLIDE_IMPORTS = ['react', 'react/jsx-runtime', './slide.content.json', './slide.controls.json'] as const
