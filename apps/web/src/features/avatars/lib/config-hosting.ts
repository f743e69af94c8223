// Whether an avatar's config file is hosted by the customer (then the editor shows it read-only
// and fetches it) or by this server. The server decides it for the saved URLs from PUBLIC_URL
// and its config-files paths; an edited URL is compared with that origin too, never only with
// the host the portal happens to be opened on.
import { isSelfHostedConfigUrl, type Avatar } from '@parla/shared/schemas/avatar';

export function configSelfHosted(
  url: string | null | undefined,
  saved: Avatar | null,
  field: 'avatarConfigURL' | 'clientConfigURL',
  pageOrigin: string,
): boolean {
  if (saved?.selfHosted && url === saved[field])
    return field === 'avatarConfigURL' ? saved.selfHosted.avatarConfig : saved.selfHosted.clientConfig;
  return isSelfHostedConfigUrl(url, [pageOrigin, ...(saved?.configFilesOrigin ? [saved.configFilesOrigin] : [])]);
}
