import { describe, expect, it } from 'vitest'
import {
  blankForm,
  checkForm,
  refusalErrors,
  formFromDraft,
} from '../../src-renderer/src/features/assistants/assistant-form'

describe('the assistant form’s checks', () => {
  it('a name is unique without case and surrounding spaces', () => {
    const r = checkForm({ ...blankForm(), name: '  FILES ' }, ['Files', 'Chat'])
    expect(r.errors?.name).toBe('There is already an assistant named “FILES”.')
    expect(checkForm({ ...blankForm(), name: 'Files 2' }, ['Files']).draft?.name).toBe('Files 2')
  })

  it('the deadline is typed in seconds and kept in ms, to the millisecond', () => {
    const ok = checkForm({ ...blankForm(), name: 'a', deadlineSeconds: '1.25' }, [])
    expect(ok.draft?.limits).toEqual({ deadlineMs: 1250 })
    const fine = checkForm({ ...blankForm(), name: 'a', deadlineSeconds: '1.2345' }, [])
    expect(fine.errors?.deadlineSeconds).toBe('At most three decimals.')
    const small = checkForm({ ...blankForm(), name: 'a', deadlineSeconds: '0.5' }, [])
    expect(small.errors?.deadlineSeconds).toBe('At least 1.')
  })

  it('an empty field is left out of the draft (the settings decide); an own empty prompt is kept', () => {
    const r = checkForm({ ...blankForm(), name: 'a', ownPrompt: true, systemPrompt: '' }, [])
    expect(r.draft).toEqual({
      name: 'a',
      systemPrompt: '',
      tools: { builtin: { mode: 'all', names: [] }, mcp: { servers: {}, others: 'all' } },
      limits: {},
    })
  })

  it('a draft comes back from the form unchanged', () => {
    const draft = {
      name: 'R',
      description: 'd',
      systemPrompt: 'p',
      providerId: 'openai',
      model: 'gpt',
      utilityModel: 'mini',
      temperature: 1.5,
      tools: {
        builtin: { mode: 'none' as const, names: ['read_file'] },
        mcp: { servers: { s: { mode: 'some' as const, names: ['x'] } }, others: 'none' as const },
      },
      permissionPolicy: 'allow-all' as const,
      limits: { maxIterations: 3, deadlineMs: 61_000 },
      workspace: 'C:\\Users\\me',
    }
    expect(checkForm(formFromDraft(draft), []).draft).toEqual(draft)
  })

  it('places the host’s refusals by their fields: an input path, a taken name; others stay with the form', () => {
    expect(
      refusalErrors({
        code: 'bad_request',
        message: 'Invalid input for assistants.update: assistant.temperature: Too big',
        details: {
          fields: {
            'assistant.temperature': 'Too big: expected number to be <=2',
            'assistant.limits.maxIterations': 'Too small',
            'assistant.limits.deadlineMs': 'Too small: expected number to be >=1000',
            'assistant.tools.mcp.servers.s.names.0': 'Too long',
            'assistant.nothingOfTheForm': 'Unknown',
          },
        },
      }),
    ).toEqual({
      temperature: 'Too big: expected number to be <=2',
      maxIterations: 'Too small',
      deadlineSeconds: 'Too small: expected number to be >=1000',
      tools: 'Too long',
    })
    const taken = 'An assistant named "Files" exists already; choose another name.'
    expect(
      refusalErrors({ code: 'conflict', message: taken, details: { fields: { name: taken } } }),
    ).toEqual({ name: taken })
    // the words of a message decide nothing: no fields, no field
    expect(
      refusalErrors({ code: 'conflict', message: 'The name assistant.name is taken.' }),
    ).toEqual({})
    expect(
      refusalErrors({ code: 'bad_request', message: 'Invalid input: assistant.name: x' }),
    ).toEqual({})
    expect(refusalErrors({ code: 'not_found', message: 'There is no assistant "x".' })).toEqual({})
    expect(
      refusalErrors({ code: 'unavailable', message: 'The provider assistant.providerId is down.' }),
    ).toEqual({})
  })
})
