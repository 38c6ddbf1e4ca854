/**
 * The slide checker's harness: the one document of the checker's own that
 * the headless browser opens. It does for the checker what the editor's
 * page does for the editor (`web/pages/client/component-view.ts`), and no
 * more:
 *
 * - it embeds the renderer frame (`renderer.html`, in
 *   `<iframe sandbox="allow-scripts">`), posts it render requests and
 *   reads its answers field by field, taking messages only from the frames
 *   it made (`event.source`);
 * - it reads what a rendered slide says from the renderer's sanitised
 *   markup, parsed in an inert `<template>` (nothing in it runs or loads):
 *   its text in document order and its number of elements;
 * - for a picture, it hosts a display frame (`slide.html`, sandboxed the
 *   same way) sized to the picture, sends it the markup and the deck's
 *   stylesheet, and says when it has shown them.
 *
 * Slide code runs only in the renderer frame's workers, as in the editor.
 * The harness is served only by the checker's own request routing
 * (`browser.ts`), at `HARNESS_PATH`, which no mount of the emulator
 * serves; its policy allows its one inline script (by hash), frames from
 * the renderer's documents only, and nothing else.
 */
import { createHash } from 'node:crypto'
import { RENDER_VERSION } from '../generated/render-scripts.js'
import {
  IMAGE_PARAM,
  MAX_MARKUP_CHARS,
  RENDER_ASSET_PATH,
  RENDER_ASSETS,
  RENDER_TIMEOUT_MS,
  SLIDE_HEIGHT,
  SLIDE_WIDTH,
  START_TIMEOUT_MS,
} from '../render/limits.js'
import { RENDER_PROTOCOL } from '../render/protocol.js'

/** The fixed origin the checker's browser knows the emulator by; no socket serves it (`browser.ts` answers every request there). */
export const CHECK_ORIGIN = 'http://emulator.localhost'

/** Where the harness is served: a path the checker's routing alone answers (no mount of the emulator serves it). */
export const HARNESS_PATH = '/_slide-checker/harness.html'

/** How long the harness waits for a render's answer beyond the renderer's own limits before it gives up on the frame (as the editor does). */
export const ANSWER_MARGIN_MS = 10_000

/** The name the harness's script defines on its window: what the checker calls through the browser's automation. */
export const HARNESS_GLOBAL = '__slideCheck'

/** A render's outcome as the harness reports it (every field checked there). */
export type HarnessAnswer =
  | { ok: true; html: string; text: string; elements: number }
  | { ok: false; error: { kind: string; message: string; line?: number; column?: number; file?: string } }

const constants = {
  protocol: RENDER_PROTOCOL,
  renderer: `${RENDER_ASSET_PATH}${RENDER_ASSETS.rendererDocument}?v=${encodeURIComponent(RENDER_VERSION)}`,
  display: `${RENDER_ASSET_PATH}${RENDER_ASSETS.slideDocument}?v=${encodeURIComponent(RENDER_VERSION)}`,
  startMs: START_TIMEOUT_MS,
  answerMs: START_TIMEOUT_MS + RENDER_TIMEOUT_MS + ANSWER_MARGIN_MS,
  maxMarkup: MAX_MARKUP_CHARS,
  kinds: ['runtime', 'import', 'no-default-export', 'timeout', 'too-large', 'crashed', 'source'],
  files: ['slide.tsx', 'slide.content.json', 'slide.controls.json'],
  slide: { width: SLIDE_WIDTH, height: SLIDE_HEIGHT },
  global: HARNESS_GLOBAL,
  imageParam: IMAGE_PARAM,
}

/**
 * The harness's script: plain JavaScript (no build step, so its text and
 * hash are exactly what is served). It defines `window.__slideCheck` with
 * `render(slide, props)`, `show(html, css, width, height)` and `clear()`.
 */
export const HARNESS_SCRIPT = `(() => {
'use strict';
const C = ${JSON.stringify(constants).replace(/</g, '\\u003c')};
const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const positive = (value) => (Number.isInteger(value) && value > 0 ? value : undefined);
/* Elements a reader reads inline, inside a line; every other element starts and ends a piece of text of its own. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd', 'label', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'tspan', 'textpath', 'u', 'var', 'wbr']);
/* Elements whose text no reader sees. */
const UNSEEN = new Set(['style', 'script', 'template', 'noscript', 'title', 'desc', 'metadata', 'head']);

let renderer = null;
let rendererReady = false;
let readyTimer;
let requests = 0;
/* Renders asked for and not answered: id -> { message, resolve, timer, sent }. */
const pending = new Map();
let display = null;
let displaySeq = 0;
let displayWaiter = null;

function frame(src, title) {
  const node = document.createElement('iframe');
  node.setAttribute('sandbox', 'allow-scripts');
  node.setAttribute('referrerpolicy', 'no-referrer');
  node.setAttribute('scrolling', 'no');
  node.setAttribute('tabindex', '-1');
  node.setAttribute('title', title);
  Object.assign(node.style, { position: 'fixed', left: '0', top: '0', border: '0', margin: '0', padding: '0' });
  node.src = src;
  return node;
}

/* The renderer frame, made when a render needs one. */
function ensureRenderer() {
  if (renderer !== null) return;
  rendererReady = false;
  const node = frame(C.renderer, 'Slide renderer');
  Object.assign(node.style, { width: '1px', height: '1px', opacity: '0', pointerEvents: 'none' });
  renderer = node;
  clearTimeout(readyTimer);
  readyTimer = setTimeout(() => {
    if (!rendererReady) lost('The slide renderer did not load within ' + C.startMs / 1000 + ' s, so this slide was not rendered.');
  }, C.startMs);
  document.body.append(node);
}

/* The renderer frame is gone or stopped answering: every render asked for fails, and the next render makes a new frame. */
function lost(message) {
  clearTimeout(readyTimer);
  renderer?.remove();
  renderer = null;
  rendererReady = false;
  for (const [id, flight] of pending) {
    clearTimeout(flight.timer);
    pending.delete(id);
    flight.resolve({ ok: false, error: { kind: 'crashed', message } });
  }
}

function send(id, flight) {
  flight.sent = true;
  flight.timer = setTimeout(() => lost('The renderer stopped answering, so this slide was not rendered.'), C.answerMs);
  renderer.contentWindow?.postMessage(flight.message, '*');
}

/* What a reader sees of sanitised markup, parsed inert: its text in document order (whitespace collapsed) and its elements. */
function readMarkup(html) {
  const inert = document.implementation.createHTMLDocument('');
  const template = inert.createElement('template');
  template.innerHTML = html;
  const root = template.content;
  const elements = root.querySelectorAll('*').length;
  const parts = [];
  const stack = [[root, false]];
  while (stack.length > 0) {
    const [node, leaving] = stack.pop();
    if (leaving) {
      parts.push(' ');
      continue;
    }
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push(node.data);
      continue;
    }
    if (node.nodeType === Node.ELEMENT_NODE) {
      const name = node.localName.toLowerCase();
      if (UNSEEN.has(name)) continue;
      if (name === 'br') {
        parts.push(' ');
        continue;
      }
      if (!INLINE.has(name)) {
        parts.push(' ');
        stack.push([node, true]);
      }
    } else if (node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) {
      continue;
    }
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], false]);
  }
  return { text: parts.join('').replace(/\\s+/g, ' ').trim(), elements };
}

/* A renderer answer, checked field by field (as the editor reads it); undefined for anything else. */
function readAnswer(data) {
  if (!isRecord(data) || data.protocol !== C.protocol) return undefined;
  if (data.type === 'ready') return { type: 'ready' };
  if (data.type !== 'result' || typeof data.id !== 'string') return undefined;
  if (data.ok === true) {
    if (typeof data.html !== 'string' || data.html.length > C.maxMarkup) return undefined;
    return { type: 'result', id: data.id, outcome: { ok: true, html: data.html, ...readMarkup(data.html) } };
  }
  const error = data.error;
  if (data.ok !== false || !isRecord(error) || typeof error.message !== 'string') return undefined;
  const line = positive(error.line);
  const column = positive(error.column);
  const outcome = {
    ok: false,
    error: { kind: C.kinds.includes(error.kind) ? error.kind : 'runtime', message: error.message.slice(0, 2000) },
  };
  if (line !== undefined) outcome.error.line = line;
  if (column !== undefined) outcome.error.column = column;
  if (C.files.includes(error.file)) outcome.error.file = error.file;
  return { type: 'result', id: data.id, outcome };
}

window.addEventListener('message', (event) => {
  if (renderer !== null && event.source === renderer.contentWindow && event.source !== null) {
    const answer = readAnswer(event.data);
    if (answer === undefined) return;
    if (answer.type === 'ready') {
      rendererReady = true;
      clearTimeout(readyTimer);
      for (const [id, flight] of pending) if (!flight.sent) send(id, flight);
      return;
    }
    const flight = pending.get(answer.id);
    if (flight === undefined) return;
    clearTimeout(flight.timer);
    pending.delete(answer.id);
    flight.resolve(answer.outcome);
    return;
  }
  if (display !== null && event.source === display.contentWindow && event.source !== null && displayWaiter !== null) {
    const message = event.data;
    if (!isRecord(message) || message.protocol !== C.protocol) return;
    if (message.type === 'ready' && displayWaiter.stage === 'loading') displayWaiter.loaded();
    else if (message.type === 'shown' && message.seq === displayWaiter.seq) displayWaiter.shown();
  }
});

/* Renders one slide in the renderer frame: { slide: { code, mappings, content, controls, images }, props } → its outcome. */
function render(slide, props) {
  ensureRenderer();
  const id = 'check-' + ++requests;
  return new Promise((resolve) => {
    const flight = { message: { protocol: C.protocol, type: 'render', id, slide, props }, resolve, timer: undefined, sent: false };
    pending.set(id, flight);
    if (rendererReady) send(id, flight);
  });
}

/* Removes the display frame. */
function clear() {
  display?.remove();
  display = null;
  displayWaiter = null;
}

/* Shows sanitised markup with the deck's stylesheet in a display frame of width × height at the top left (allowed to load the images
   its content names, as the editor's stage is); resolves once it is shown, with whether the frame was the one shown before. A
   display frame of the same size and images is kept and shown again (one frame serves a deck of the same picture size). */
function show(html, css, width, height, images) {
  let src = C.display;
  for (const image of Array.isArray(images) ? images : []) if (typeof image === 'string') src += '&' + C.imageParam + '=' + encodeURIComponent(image);
  const key = width + 'x' + height + ' ' + src;
  const reuse = display !== null && display.dataset.key === key && displayWaiter === null;
  if (!reuse) clear();
  const node = reuse ? display : frame(src, 'Slide');
  if (!reuse) {
    node.className = 'slide-display';
    node.dataset.key = key;
    Object.assign(node.style, { width: width + 'px', height: height + 'px', zIndex: '1', background: 'transparent' });
  }
  const seq = ++displaySeq;
  display = node;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (display === node) clear();
      reject(new Error('The display frame did not show the slide within ' + C.startMs / 1000 + ' s.'));
    }, C.startMs);
    displayWaiter = {
      stage: 'loading',
      seq,
      loaded() {
        this.stage = 'showing';
        node.contentWindow?.postMessage({ protocol: C.protocol, type: 'show', seq, css, html }, '*');
      },
      shown() {
        clearTimeout(timer);
        displayWaiter = null;
        resolve(reuse);
      },
    };
    if (reuse) displayWaiter.loaded();
    else document.body.append(node);
  });
}

Object.defineProperty(window, C.global, { value: Object.freeze({ render, show, clear }) });
})();
`

/** The base64 SHA-256 of a text, as a CSP hash source wants it. */
function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
}

/**
 * The harness's policy: its own script (by hash) and frames from the
 * renderer's documents only; no connection, image, font, form or base;
 * framed by nobody. Inline styles are allowed only because the slide's
 * markup, parsed inert to read its text, carries them: a refused `style`
 * attribute is reported even in an inert document, and nothing inert is
 * styled or shown (nor could a style load anything: no image, no font). `sandbox allow-scripts allow-same-origin` keeps
 * its origin (the renderer answers only its parent on the emulator's
 * origin) and takes away popups, modals, forms and top navigation.
 */
export function harnessPolicy(): string {
  return [
    'sandbox allow-scripts allow-same-origin',
    "default-src 'none'",
    `script-src ${hashSource(HARNESS_SCRIPT)}`,
    `frame-src ${CHECK_ORIGIN}${RENDER_ASSET_PATH}`,
    "connect-src 'none'",
    "img-src 'none'",
    "style-src 'unsafe-inline'",
    "font-src 'none'",
    "worker-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** The harness document: an empty page and its script. */
export function harnessDocument(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta http-equiv="x-dns-prefetch-control" content="off"><title>Slide checker</title></head>
<body><script>${HARNESS_SCRIPT}</script></body>
</html>
`
}

/** The headers the harness is served with. */
export function harnessHeaders(): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': harnessPolicy(),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  }
}
