import { describe, expect, it } from 'vitest';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { configSelfHosted } from './config-hosting';

const saved = {
  avatarConfigURL: 'http://127.0.0.1:8480/config-files/avatars/a1/avatar.json',
  clientConfigURL: 'https://cdn.example.com/client.json',
  selfHosted: { avatarConfig: false, clientConfig: true },
  configFilesOrigin: 'http://127.0.0.1:8480',
} as Avatar;

describe('configSelfHosted', () => {
  it("a saved avatar's own config file is not self-hosted when the portal is opened on another host than PUBLIC_URL", () => {
    expect(configSelfHosted(saved.avatarConfigURL, saved, 'avatarConfigURL', 'http://localhost:5173')).toBe(false);
    expect(configSelfHosted(saved.clientConfigURL, saved, 'clientConfigURL', 'http://localhost:5173')).toBe(true);
  });

  it("an edited URL is this server's when it is under PUBLIC_URL's or the page's config-files path", () => {
    expect(
      configSelfHosted('http://127.0.0.1:8480/config-files/avatars/a2/avatar.json', saved, 'avatarConfigURL', 'http://localhost:5173'),
    ).toBe(false);
    expect(
      configSelfHosted('http://localhost:5173/config-files/avatars/a2/avatar.json', null, 'avatarConfigURL', 'http://localhost:5173'),
    ).toBe(false);
    expect(configSelfHosted('https://cdn.example.com/avatar.json', saved, 'avatarConfigURL', 'http://localhost:5173')).toBe(true);
  });
});
