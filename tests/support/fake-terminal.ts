/**
 * A stream standing in for the CLI's stdin, stdout or stderr in the same process: a
 * PassThrough that keeps everything written to it (`text()`), passing for a terminal or not.
 */
import { PassThrough } from 'node:stream'

export type FakeStream = NodeJS.WriteStream & NodeJS.ReadStream & { text: () => string }

export function fakeStream(tty: boolean, columns = 80, rows?: number): FakeStream {
  const s = new PassThrough() as unknown as FakeStream
  let text = ''
  s.on('data', (d: Buffer) => (text += d.toString()))
  Object.assign(s, {
    isTTY: tty,
    columns,
    ...(rows !== undefined ? { rows } : {}),
    text: () => text,
  })
  return s
}
