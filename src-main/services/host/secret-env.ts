/**
 * API keys given through the environment are read once, when a host starts, into the
 * host's own copy of the environment, and taken out of `process.env`: nothing the process
 * starts later (a command, an MCP server, a helper) inherits them, and nothing that lists
 * `process.env` shows them. What stays visible to a process of the same user is written in
 * the README ("What Cairn protects").
 */

/** The provider variables that hold keys. */
export const SECRET_ENV_NAMES: readonly string[] = ['CAIRN_API_KEY', 'OPENAI_API_KEY']

/**
 * A copy of `env` for the host to read provider settings from. When `env` is the
 * process's own environment, the keys are removed from it.
 */
export function withdrawSecretEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env }
  if (env === process.env) for (const name of SECRET_ENV_NAMES) delete process.env[name]
  return copy
}
