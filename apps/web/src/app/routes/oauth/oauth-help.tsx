// How an avatar uses an OAuth config (/oauthhelp), with this installation's real URLs: the
// server's PUBLIC_URL (portal settings), the one base the config cards use too (issue 17).
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { OAUTH_PARTNER_DEFAULTS, oauthCallbackUrl } from '@parla/shared/schemas/oauth';
import { paths } from '../../../config/paths';
import { useOauthApps } from '../../../features/oauth-configs/api/get-oauth-apps';
import { usePortalSettings } from '../../../lib/portal-settings';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 4 }}>
      <Typography variant="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

const P = ({ children }: { children: ReactNode }) => <Typography sx={{ mb: 1.5 }}>{children}</Typography>;

function Code({ children }: { children: string }) {
  return (
    <Paper
      variant="outlined"
      component="pre"
      sx={{
        p: 2,
        overflowX: 'auto',
        fontSize: 13,
        bgcolor: 'grey.50',
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-all',
      }}
    >
      {children}
    </Paper>
  );
}

/** The callback address to register: each config's own, or the pattern while there is none. */
function CallbackUrls({ publicUrl }: { publicUrl: string }) {
  const apps = useOauthApps();
  if (!apps.data || apps.data.oauthApps.length === 0) return <Code>{oauthCallbackUrl(publicUrl, '{config ID}')}</Code>;
  return (
    <Table size="small" aria-label="Your callback URLs" sx={{ mb: 2 }}>
      <TableHead>
        <TableRow>
          <TableCell>Config</TableCell>
          <TableCell>ID</TableCell>
          <TableCell>Callback URL</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {apps.data.oauthApps.map((a) => (
          <TableRow key={a.appId}>
            <TableCell>{a.appName}</TableCell>
            <TableCell>{a.appId}</TableCell>
            <TableCell sx={{ wordBreak: 'break-all' }}>{a.callbackURL}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export default function OAuthHelpRoute() {
  const { productName, publicUrl } = usePortalSettings();
  const google = OAUTH_PARTNER_DEFAULTS.Google!;
  return (
    <Container maxWidth="md" sx={{ py: { xs: 2, sm: 4 } }}>
      <Typography variant="body2">
        <Link component={RouterLink} to={paths.oauthConfigs}>
          OAuth Configs
        </Link>
      </Typography>
      <Typography variant="h1" sx={{ mt: 1 }}>
        How OAuth configs work
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        An OAuth config lets an avatar ask each of its users to sign in with an identity service (Google or SmartPension) before the
        conversation starts, so that you know who is talking to it.
      </Typography>

      <Section title="1. Register a client with the identity service">
        <P>
          At the identity service, create an OAuth client for a web application. For Google: Google Cloud console, APIs &amp; Services,
          Credentials, Create credentials, OAuth client ID, application type Web application. The service gives you a client ID and a client
          secret.
        </P>
      </Section>

      <Section title="2. Create the config here">
        <P>
          On{' '}
          <Link component={RouterLink} to={paths.addOauthApp}>
            Create OAuth Config
          </Link>
          , step OAuth Info asks for a name and the identity service; step OAuth Details for the client ID, the client secret, the OAuth URL
          (where your users sign in) and the Token Issue URL (where {productName} exchanges the sign-in code for a token). For Google these
          are filled in for you:
        </P>
        <Code>{`OAuth URL:        ${google.oauthURL}\nToken Issue URL:  ${google.tokenIssueURL}`}</Code>
        <P>
          The client secret is stored encrypted and only ever shown masked. To replace it, edit the config and type the new secret; leaving
          the masked value keeps the stored one.
        </P>
      </Section>

      <Section title="3. Register the callback URL">
        <P>
          Each config has its own callback URL, shown on its card in the list. Add it to the client at the identity service as an authorised
          redirect URI, exactly as shown:
        </P>
        <CallbackUrls publicUrl={publicUrl} />
      </Section>

      <Section title="4. Turn it on for an avatar">
        <P>
          In the avatar editor, turn on OAuth Enabled and enter the config&apos;s ID (the number on its card) as the Customer OAuth Config
          ID, then save the avatar.
        </P>
      </Section>

      <Section title="What your users see">
        <P>A user opens the avatar&apos;s link, for example:</P>
        <Code>{`${publicUrl}/avatar/{avatarId}?token={token}`}</Code>
        <P>
          Before the conversation starts, {productName} sends them to the OAuth URL with your client ID, the callback URL as redirect_uri,
          response_type=code and a one-time state value. After they sign in, the identity service returns them to the callback URL with a
          code; {productName} checks the state and exchanges the code at the Token Issue URL with your client ID and secret, from the
          server: the secret never reaches the browser. Then the conversation starts.
        </P>
      </Section>
    </Container>
  );
}
