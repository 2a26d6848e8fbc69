/** How a tool's server is named on screen, the same in the dialog and on the card. */
export function serverLabel(server: string): string {
  if (server === 'cairn') return 'Cairn (built-in)'
  return server || 'unknown tool'
}
