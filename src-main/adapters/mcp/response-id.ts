/** Finding the id of a response too large to parse, from the ends of its line. */
/**
 * The id of a JSON-RPC response from the two ends of its line (`{"jsonrpc":"2.0","id":7,
 * "result":…` or `{"result":…,"jsonrpc":"2.0","id":7}`), or null when the line does not
 * look like a response. Forward scans of at most a few hundred characters, no regex.
 */
export function responseId(head: string, tail: string): number | string | null {
  const start = head.trimStart()
  if (!start.startsWith('{') || start.slice(0, 40).includes('"method"')) return null
  if (
    !start.startsWith('{"result"') &&
    !start.startsWith('{"jsonrpc"') &&
    !start.startsWith('{"id"')
  )
    return null
  return idAfter(head, head.indexOf('"id"')) ?? idAfter(tail, tail.lastIndexOf('"id"'))
}

function idAfter(text: string, key: number): number | string | null {
  if (key < 0) return null
  let i = key + 4
  while (text[i] === ' ' || text[i] === '\t') i++
  if (text[i] !== ':') return null
  i++
  while (text[i] === ' ' || text[i] === '\t') i++
  if (text[i] === '"') {
    const end = text.indexOf('"', i + 1)
    return end > i ? text.slice(i + 1, end) : null
  }
  let j = i
  while (j < text.length && text[j]! >= '0' && text[j]! <= '9') j++
  return j > i && j - i <= 15 ? Number(text.slice(i, j)) : null
}
