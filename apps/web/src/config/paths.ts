// Every route of the portal (spec 1 §2, spec 4 §2), relative to the router's basename /react.
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgotpassword',
  emailVerification: (code = ':code') => `/email-verification/${code}`,
  resetPassword: (code = ':code') => `/reset-password/${code}`,
  docs: '/docs',
  signout: '/signout',
  avatars: '/avatars',
  addAvatar: '/addavatar',
  knowledgeBase: '/knowledgeBase',
  functions: '/functions',
  encryptionKeys: '/encryptionKeys',
  account: '/account',
  onlineUsers: '/onlineusers',
  vpsStatus: '/vpsstatus',
  customers: '/customers',
  functionReview: '/functionreview',
  oauthConfigs: '/oauthconfigs',
  addOauthApp: '/addoauthapp',
  oauthHelp: '/oauthhelp',
  myOnlineUsers: '/myonlineusers',
  chatWidget: (avatarId = ':avatarId') => `/chatWidget/${avatarId}`,
} as const;

/** Where a signed-in user goes from home (spec 1 §2). */
export function homeFor(userType: string | undefined): string {
  return userType === 'ADMIN' ? paths.onlineUsers : paths.avatars;
}
