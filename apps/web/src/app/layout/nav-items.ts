// The navbar of each role (spec 1 §2).
import { paths } from '../../config/paths';
import type { AuthSession } from '../../lib/auth-session';

export interface NavItem {
  label: string;
  to: string;
  external?: boolean;
}

export function navItems(session: AuthSession | null, docsUrl: string): NavItem[] {
  if (!session) return [];
  if (session.userType === 'ADMIN') {
    return [
      { label: 'Online Users', to: paths.onlineUsers },
      { label: 'VPS Status', to: paths.vpsStatus },
      { label: 'Customers', to: paths.customers },
      { label: 'Function Review', to: paths.functionReview },
      { label: 'Account', to: paths.account },
      { label: 'Sign Out', to: paths.signout },
    ];
  }
  return [
    { label: 'Avatar Creator', to: paths.avatars },
    { label: 'Knowledge Base', to: paths.knowledgeBase },
    { label: 'Functions', to: paths.functions },
    { label: 'Encryption Keys', to: paths.encryptionKeys },
    { label: 'Account', to: paths.account },
    { label: 'Docs', to: docsUrl, external: true },
    { label: 'Sign Out', to: paths.signout },
  ];
}
