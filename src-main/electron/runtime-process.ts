/**
 * The local model runtime in the desktop app: Electron's utility process (a Node process
 * the main process starts and owns; the app's fuses forbid running Electron as Node),
 * running `out/main/local-runtime.js`. A crash or a stuck model there never takes the
 * window or the agent loop down.
 */
import { join } from 'node:path'
import type { UtilityProcess, utilityProcess as UtilityProcessModule } from 'electron'
import type { RuntimeLauncher } from '../services/providers/local-runtime'

/** `out/main/local-runtime.js` in the app (the project, or app.asar). */
export function runtimeScript(appPath: string): string {
  return join(appPath, 'out', 'main', 'local-runtime.js')
}

export function utilityRuntimeLauncher(
  utility: typeof UtilityProcessModule,
  script: string,
): RuntimeLauncher {
  return () => {
    const child: UtilityProcess = utility.fork(script, [], {
      serviceName: 'Cairn local model runtime',
      stdio: 'ignore',
      env: { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true' },
    })
    let exitSignal: 'SIGTERM' | 'SIGKILL' | null = null
    return {
      get pid() {
        return child.pid
      },
      send: (m) => child.postMessage(m),
      onMessage: (fn) => void child.on('message', fn),
      // a utility process reports only its exit code: the signal is the one Cairn sent, if any
      onExit: (fn) => void child.once('exit', (code) => fn({ code, signal: exitSignal })),
      kill: (signal = 'SIGKILL') => {
        exitSignal = signal
        if (signal === 'SIGTERM') child.postMessage({ type: 'stop' })
        else child.kill()
      },
    }
  }
}
