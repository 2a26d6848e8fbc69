// @ts-check
/**
 * `layers/function-length`: ESLint's `max-lines-per-function` (same options, same counting),
 * with a message that ends with where the limit is explained (option `docs`).
 */
import { builtinRules } from 'eslint/use-at-your-own-risk'

const base = /** @type {import('eslint').Rule.RuleModule} */ (
  builtinRules.get('max-lines-per-function')
)
const baseOptions = /** @type {any} */ (base.meta?.schema)?.[0]?.oneOf?.[0]

/** @type {import('eslint').Rule.RuleModule} */
export const functionLength = {
  meta: {
    type: 'suggestion',
    docs: {
      description: 'A function fits on a screen or two: split a longer one into named steps.',
    },
    schema: [
      {
        type: 'object',
        properties: { ...baseOptions.properties, docs: { type: 'string' } },
        required: ['max', 'docs'],
        additionalProperties: false,
      },
    ],
    messages: {
      exceed:
        '{{name}} has too many lines ({{lineCount}}); at most {{maxLines}} here. Split it into named steps. See {{docs}}',
    },
  },
  create(context) {
    const { docs, ...options } = context.options[0]
    // the base rule reads its options from the context; its reports get `docs` added
    const inner = Object.create(context, {
      options: { value: [options] },
      report: {
        value: (/** @type {any} */ d) => context.report({ ...d, data: { ...d.data, docs } }),
      },
    })
    return base.create(inner)
  },
}
