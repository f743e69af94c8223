// The mails of plan changes: the request to every administrator, the decision to the customer.
import { PRODUCT_NAME } from '@parla/shared/enums';
import { PLAN_PRICES, planName } from '@parla/shared/plans';
import type { MailMessage } from '../../lib/mailer';

const plan = (value: number) => `${planName(value)} (${PLAN_PRICES[planName(value)]})`;

export function planRequestMail(
  to: string,
  customer: { name: string; email: string },
  from: number,
  requested: number,
  deskLink: string,
): MailMessage {
  return {
    to,
    subject: `${PRODUCT_NAME}: ${customer.name} asks to change plan to ${planName(requested)}`,
    text:
      `Hello,\n\n${customer.name} <${customer.email}> asks to change their subscription plan\n\n` +
      `  from: ${plan(from)}\n  to:   ${plan(requested)}\n\n` +
      `Approve or decline it on the Customers screen:\n\n${deskLink}\n\n` +
      `The customer receives an email with your decision.\n`,
  };
}

export function planCancelMail(to: string, customer: { name: string; email: string }, requested: number, deskLink: string): MailMessage {
  return {
    to,
    subject: `${PRODUCT_NAME}: ${customer.name} cancelled their plan change request`,
    text:
      `Hello,\n\n${customer.name} <${customer.email}> has cancelled the request to change to the ${planName(requested)} plan. ` +
      `Nothing is left to decide.\n\nThe Customers screen:\n\n${deskLink}\n`,
  };
}

export function planDecisionMail(
  to: string,
  firstName: string,
  approved: boolean,
  requested: number,
  current: number,
  accountLink: string,
): MailMessage {
  return approved
    ? {
        to,
        subject: `Your ${PRODUCT_NAME} plan is now ${planName(requested)}`,
        text:
          `Hello ${firstName},\n\nYour request has been approved: your subscription plan is now ${plan(requested)}, ` +
          `starting today.\n\nSee your plan and its usage on your account page:\n\n${accountLink}\n`,
      }
    : {
        to,
        subject: `Your ${PRODUCT_NAME} plan change request`,
        text:
          `Hello ${firstName},\n\nYour request to change to the ${planName(requested)} plan has been declined. ` +
          `Your plan stays ${plan(current)}.\n\nReply to this mail if you would like to talk about it. ` +
          `You can send a new request from your account page:\n\n${accountLink}\n`,
      };
}
