import { describe, expect, it } from 'vitest';
import { SubscriptionType } from '@parla/shared/plans';
import { planFull, planFullText } from './plan-room';

describe('planFull', () => {
  it('says the free plan is full at its second avatar', () => {
    expect(planFull(SubscriptionType.FREE, 1, true)).toBeNull();
    expect(planFull(SubscriptionType.FREE, 2, true)).toEqual({ plan: 'FREE', limit: 2 });
  });
  it('counts an incomplete list as more than any finite limit', () => {
    expect(planFull(SubscriptionType.PRO, 200, false)).toEqual({ plan: 'PRO', limit: 25 });
  });
  it('never says an enterprise plan is full', () => {
    expect(planFull(SubscriptionType.ENTERPRISE, 5000, false)).toBeNull();
  });
  it('says nothing before the account and the list are known', () => {
    expect(planFull(undefined, 2, true)).toBeNull();
    expect(planFull(SubscriptionType.FREE, undefined, false)).toBeNull();
  });
  it('words the limit for people', () => {
    expect(planFullText({ plan: 'FREE', limit: 2 })).toBe(
      'Your FREE plan allows 2 avatars, and you have reached it. Upgrade your plan on the account page to create more.',
    );
  });
});
