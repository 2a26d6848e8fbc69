/**
 * The preload. The bridge issue exposes `window.cairn` ({ request, on, off }) here over
 * two channels; until then it exposes nothing.
 */
export {}
