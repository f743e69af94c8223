// The mails of sign-up and password reset.
import { PRODUCT_NAME } from '@parla/shared/enums';
import type { MailMessage } from '../../lib/mailer';

/** No registrant's name: somebody else may have registered the address (decision 011). */
export function verificationMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: `Verify your email for ${PRODUCT_NAME}`,
    text: `Hello,\n\nPlease confirm your email address to finish creating your ${PRODUCT_NAME} account:\n\n${link}\n\nOn that page, enter the password you chose when you registered. The link is valid for 48 hours. If you did not sign up, ignore this mail.\n`,
  };
}

export function alreadyRegisteredMail(to: string, firstName: string, loginLink: string, resetLink: string): MailMessage {
  return {
    to,
    subject: `Your ${PRODUCT_NAME} account`,
    text: `Hello ${firstName},\n\nSomebody tried to register a new ${PRODUCT_NAME} account with this email address, but you already have one.\n\nSign in: ${loginLink}\nForgot your password? ${resetLink}\n\nIf it was not you, you can ignore this mail.\n`,
  };
}

export function resetMail(to: string, firstName: string, link: string): MailMessage {
  return {
    to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: `Hello ${firstName},\n\nWe received a request to reset your password. Choose a new one here:\n\n${link}\n\nThe link works once and for one hour. If you did not ask for it, ignore this mail: your password stays as it is.\n`,
  };
}
