// The routes of spec 1 §2 and spec 4 §2 under the basename /react. Every screen is loaded
// lazily so the first load stays small.
import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import { AppLayout } from './layout/app-layout';
import { RequireAuth } from './require-auth';
import { RouteError } from './route-error';

type Loader = () => Promise<{ default: React.ComponentType }>;
const screen = (load: Loader): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

export const publicRoutes: RouteObject[] = [
  { index: true, ...screen(() => import('./routes/home')) },
  { path: paths.login, ...screen(() => import('./routes/auth/login')) },
  { path: paths.register, ...screen(() => import('./routes/auth/register')) },
  { path: paths.forgotPassword, ...screen(() => import('./routes/auth/forgot-password')) },
  { path: paths.emailVerification(), ...screen(() => import('./routes/auth/email-verification')) },
  { path: paths.resetPassword(), ...screen(() => import('./routes/auth/reset-password')) },
  { path: paths.signout, ...screen(() => import('./routes/auth/signout')) },
  { path: paths.docs, ...screen(() => import('./routes/docs')) },
];

export const customerRoutes: RouteObject[] = [
  { path: paths.oauthConfigs, ...screen(() => import('./routes/oauth/oauth-configs')) },
  { path: paths.addOauthApp, ...screen(() => import('./routes/oauth/add-oauth-app')) },
  { path: paths.oauthHelp, ...screen(() => import('./routes/oauth/oauth-help')) },
  { path: paths.knowledgeBase, ...screen(() => import('./routes/knowledge/knowledge-base')) },
  { path: paths.functions, ...screen(() => import('./routes/functions/functions')) },
  { path: paths.encryptionKeys, ...screen(() => import('./routes/encryption-keys/encryption-keys')) },
  { path: paths.avatars, ...screen(() => import('./routes/avatars/avatars')) },
  { path: paths.myOnlineUsers, ...screen(() => import('./routes/online-users/my-online-users')) },
];

export const adminRoutes: RouteObject[] = [
  { path: paths.customers, ...screen(() => import('./routes/admin/customers')) },
  { path: paths.functionReview, ...screen(() => import('./routes/admin/function-review')) },
  { path: paths.onlineUsers, ...screen(() => import('./routes/admin/online-users')) },
  { path: paths.vpsStatus, ...screen(() => import('./routes/admin/vps-status')) },
];

export const signedInRoutes: RouteObject[] = [
  { path: paths.account, ...screen(() => import('./routes/account/account')) },
  { path: paths.addAvatar, ...screen(() => import('./routes/avatars/add-avatar')) },
];

export function createRouter() {
  return createBrowserRouter(
    [
      // The chat widget is the player alone: no navbar, no footer, no sign-in.
      { path: paths.chatWidget(), errorElement: <RouteError />, ...screen(() => import('./routes/avatars/chat-widget')) },
      {
        element: <AppLayout />,
        errorElement: <RouteError />,
        children: [
          ...publicRoutes,
          { element: <RequireAuth />, children: signedInRoutes },
          { element: <RequireAuth role="CUSTOMER" />, children: customerRoutes },
          { element: <RequireAuth role="ADMIN" />, children: adminRoutes },
          { path: '*', ...screen(() => import('./routes/not-found')) },
        ],
      },
    ],
    { basename: '/react' },
  );
}
