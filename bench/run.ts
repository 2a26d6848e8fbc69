/**
 * `npm run bench`: measures, on this machine, in one run:
 * - the CPU cost of the whole agent loop per streamed token against a bare SDK loop;
 * - database writes during a streamed turn;
 * - full-text search over 100 000 stored messages;
 * - the usage report (Settings › Usage, `cairn usage`) over 100 000 stored messages;
 * - how long the `cairn` command takes to start (build it first: `npm run build:cli`);
 * - the local model runtime: send to first token cold and warm, tokens per second, and
 *   llama-server's figures beside them when CAIRN_BENCH_LLAMA_SERVER names one;
 * - attachments: a 100-page PDF's text, a 12-megapixel photo made ready to send.
 * Prints ratios and percentiles with their targets. It is a benchmark, not a test: it
 * reports, and exits non-zero only if something failed to run.
 */
import { benchAttachments, printAttachments } from './attachments'
import { benchCliStart, printCliStart } from './cli-start'
import { benchLocalRuntime, printLocalRuntime } from './local-runtime'
import { benchLoop } from './loop'
import { benchSearch, printSearchResult } from './search'
import { benchUsage, printUsageResult } from './usage'

function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'MISS'
}

async function main(): Promise<void> {
  console.log('Cairn benchmark')
  console.log(`node ${process.version}, ${process.platform}/${process.arch}\n`)

  console.log(
    '1. Streaming 20 000 tokens through the whole loop vs a bare openai SDK loop (median of 7, CPU time)',
  )
  const loop = await benchLoop()
  console.log(`   bare SDK loop     ${loop.bareCpuMs.toFixed(1)} ms CPU`)
  console.log(
    `   Cairn's loop      ${loop.loopCpuMs.toFixed(1)} ms CPU  (${loop.textDeltaEvents} text events)`,
  )
  console.log(
    `   ratio             ${loop.ratio.toFixed(3)}   target ≤ 1.25   ${verdict(loop.ratio <= 1.25)}`,
  )
  console.log(
    `   database writes   ${loop.dbWritesPerTurn} for ${loop.messagesPerTurn} completed messages   target: one per message, none per token   ${verdict(loop.dbWritesPerTurn === loop.messagesPerTurn)}\n`,
  )

  console.log('2. Full-text search over 100 000 messages')
  const search = await benchSearch()
  printSearchResult(search)

  console.log('\n3. Starting the cairn command (out/cli, a new process each run)')
  printCliStart(benchCliStart(), verdict)

  console.log(
    '\n4. The local model runtime on the tiny test model (stories260K, out/cli/local-runtime.js)',
  )
  printLocalRuntime(await benchLocalRuntime(), verdict)

  console.log('\n5. The usage report over 100 000 messages (by day, model, provider, chat)')
  printUsageResult(benchUsage())

  console.log('\n6. Attachments')
  printAttachments(await benchAttachments(), verdict)
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
