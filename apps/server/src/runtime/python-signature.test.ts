import { describe, expect, it } from 'vitest';
import { describePythonFunction } from './python-signature';

describe('describePythonFunction', () => {
  it('reads the name, annotated parameters, defaults and the Google-style docstring', () => {
    const code = `import json\n\ndef book_appointment(name: str, date: str, guests: int = 2, notes: list[str] = None) -> dict:\n    """Book an appointment for a visitor.\n\n    Args:\n        name: The visitor's full name.\n        guests (int): How many people.\n\n    Returns:\n        A confirmation.\n    """\n    return {}\n`;
    expect(describePythonFunction(code)).toEqual({
      name: 'book_appointment',
      description: 'Book an appointment for a visitor.',
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', description: "The visitor's full name." },
          date: { type: 'string' },
          guests: { type: 'integer', description: 'How many people.' },
          notes: { type: 'array' },
        },
        required: ['name', 'date'],
      },
    });
  });

  it('skips private helpers and reads a function without a docstring', () => {
    expect(describePythonFunction('def _helper():\n    pass\n\ndef ping(x):\n    return x\n')).toEqual({
      name: 'ping',
      description: '',
      parameters: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] },
    });
    expect(describePythonFunction('x = 1\n')).toBeNull();
  });
});
