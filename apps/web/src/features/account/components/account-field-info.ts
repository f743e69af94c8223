// What the information panel says about each field of the Account Details panel.
import { PLAN_DISPLAY_ORDER, PLAN_LIMITS, PLAN_PRICES, type PlanName } from '@parla/shared/plans';
import type { FieldInfo } from '../../../components/info-panel';

export function planLine(plan: PlanName): string {
  const l = PLAN_LIMITS[plan];
  const avatars = l.avatars === null ? 'unlimited avatars' : `${l.avatars} avatars`;
  const minutes = l.minutesPerMonth === null ? 'unlimited conversation minutes' : `${l.minutesPerMonth} conversation minutes a month`;
  return `${plan}: ${PLAN_PRICES[plan]}, ${avatars}, ${minutes}`;
}

export const ACCOUNT_FIELD_INFO = {
  customerId: {
    title: 'Customer ID',
    description: 'The unique identifier of your account. It never changes, even when your name, email or plan does.',
    whyImportant: 'Quote it when you contact support or ask for a plan change: it identifies your account without doubt.',
  },
  name: {
    title: 'Name',
    description: 'The first and last name given when the account was registered.',
    whyImportant: 'Administrators and support use it when they email you about your account and plan.',
  },
  email: {
    title: 'Email',
    description: 'The address you sign in with. Password resets and plan decisions are sent here.',
    whyImportant: 'If this address stops working you cannot reset your password or receive the confirmation of a plan change.',
  },
  status: {
    title: 'Status',
    description: 'Whether the account may be used.',
    possibleValues: [
      'ACTIVE: you can sign in and your avatars work',
      'SUSPENDED: an administrator has suspended the account; nobody can sign in to it',
    ],
    whyImportant: 'A suspended account is signed out everywhere at once. Contact support if you believe this is a mistake.',
  },
  created: {
    title: 'Created',
    description: 'When the account was registered.',
    whyImportant: 'Together with the Customer ID it helps support find your account history.',
  },
  plan: {
    title: 'Subscription plan',
    description:
      'Your current plan. It decides how many avatars you can have and how many conversation minutes your avatars may use each calendar month.',
    possibleValues: PLAN_DISPLAY_ORDER.map(planLine),
    whyImportant:
      'When a limit is reached, new avatars cannot be created or conversations stop until the next month. Use Change Subscription to ask for another plan.',
  },
  subscribedSince: {
    title: 'Subscribed since',
    description: 'When your current plan started: the day an administrator approved your last plan change, or the day you registered.',
    whyImportant: 'It tells you which plan applied to past billing periods.',
  },
  usage: {
    title: 'Usage this month',
    description: 'Avatars you own and conversation minutes used this calendar month (UTC), against the limits of your plan.',
    whyImportant: 'Ask for a bigger plan before you reach a limit, so that your avatars keep answering.',
  },
} satisfies Record<string, FieldInfo>;
