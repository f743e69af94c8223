import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INVALID_PARAMS_FALLBACK } from './errors';
import { firstIssueMessage, issueMessages } from './zod-messages';

const schema = z.object({ name: z.string().min(1, 'Name is required'), age: z.number() });

describe('zod issues as messages', () => {
  it("keeps each schema's own text once and turns zod's generic text into the spec's", () => {
    const r = schema.safeParse({ name: '', age: 'old' });
    expect(r.success).toBe(false);
    expect(issueMessages(r.error!.issues)).toEqual(['Name is required', INVALID_PARAMS_FALLBACK]);
  });

  it('answers the generic text for a wrong shape at the root and for no issues at all', () => {
    expect(firstIssueMessage(schema.safeParse('x').error!)).toBe(INVALID_PARAMS_FALLBACK);
    expect(issueMessages([])).toEqual([INVALID_PARAMS_FALLBACK]);
  });
});
