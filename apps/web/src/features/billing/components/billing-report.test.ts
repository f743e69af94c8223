import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { defaultDates, rangeOf } from './billing-report';

describe('the billing range', () => {
  it('opens on one month ago to today', () => {
    const today = dayjs('2025-03-31T15:00:00');
    const { start, end } = defaultDates(today);
    expect(start.format('YYYY-MM-DD HH:mm')).toBe('2025-02-28 00:00');
    expect(end.format('YYYY-MM-DD')).toBe('2025-03-31');
  });

  it('covers whole days: from the start of the first to the start of the day after the last', () => {
    const r = rangeOf(dayjs('2025-01-10T13:00:00'), dayjs('2025-01-10T09:00:00'));
    expect(r.startDate).toBe(dayjs('2025-01-10T00:00:00').valueOf());
    expect(r.endDate - r.startDate).toBe(24 * 3_600_000);
  });
});
