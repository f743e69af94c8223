// The product's documentation for customers (public route /docs).
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { usePortalSettings } from '../../lib/portal-settings';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" id={id} sx={{ mt: 5 }}>
      <Typography variant="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Code({ children }: { children: string }) {
  return (
    <Paper
      variant="outlined"
      component="pre"
      sx={{ p: 2, overflowX: 'auto', fontSize: 13, bgcolor: 'grey.50', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' }}
    >
      {children}
    </Paper>
  );
}

const P = ({ children }: { children: ReactNode }) => <Typography sx={{ mb: 1.5 }}>{children}</Typography>;

export default function DocsRoute() {
  const { productName } = usePortalSettings();
  const origin = window.location.origin;
  const toc = [
    ['start', 'Getting started'],
    ['avatars', 'Avatars'],
    ['brain', 'The brain'],
    ['embed', 'Embedding'],
    ['host-api', 'Talking to the avatar from your page'],
    ['access', 'Private avatars'],
    ['rest', 'REST endpoint brain'],
  ] as const;
  return (
    <Container maxWidth="md" sx={{ py: 5 }}>
      <Typography variant="h1">{productName} documentation</Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        Build a talking avatar, give it a brain, and put it on your site.
      </Typography>
      <Box component="nav" aria-label="Contents" sx={{ mt: 3, display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        {toc.map(([id, label]) => (
          <Link key={id} href={`#${id}`}>
            {label}
          </Link>
        ))}
      </Box>

      <Section id="start" title="Getting started">
        <P>
          Register, confirm your email from the link we send, and sign in. Open Avatar Creator, pick an appearance from the grid and press
          CREATE AVATAR. New avatars answer in echo mode: they repeat what you say, so you can try the face, voice and chat before
          connecting a brain.
        </P>
        <P>Press Connect on the avatar's card to talk to it in a new tab.</P>
      </Section>

      <Section id="avatars" title="Avatars">
        <P>
          Image avatars are illustrated portraits animated in the browser; upper body 3D avatars show head and shoulders with a background
          and lighting; full body 3D avatars stand inside a 3D environment. Every avatar moves its lips in time with its speech, with or
          without audio.
        </P>
        <P>
          In the Environment tab choose a background image or video (16:9, images up to 10 MB, videos up to 25 MB), a colour, or a
          transparent background for overlays; upload your own .glb environment (up to 25 MB) for full body avatars.
        </P>
      </Section>

      <Section id="brain" title="The brain">
        <P>
          The Brain tab decides how the avatar answers: echo, a large language model (any OpenAI-compatible provider), your own REST
          endpoint, Dialogflow ES or CX, a realtime speech-to-speech model, or a third-party conversational agent. Link knowledge base
          collections so the model answers from your documents, and approved functions it may call.
        </P>
      </Section>

      <Section id="embed" title="Embedding">
        <P>The EMBED tab gives the snippet for your avatar. It looks like this:</P>
        <Code>{`<iframe src="${origin}/avatar/{avatarId}?token={token}&connect=false"
  allow="camera; microphone; fullscreen; autoplay; encrypted-media; picture-in-picture"
  style="width: 100%; height: 640px; border: 0"></iframe>`}</Code>
        <P>
          URL parameters: dialPageBackground (a colour or image URL for the page before the call), screenAspectRatio (for example 9:16),
          controlButtonPosition (center, right or left), hideChatInput, hideChatHistory, connect (true skips the dial page), micOff,
          speakerOff, hideFS, hideLetsChatBtn.
        </P>
      </Section>

      <Section id="host-api" title="Talking to the avatar from your page">
        <P>Your page can command the embedded avatar with postMessage, and receive its events:</P>
        <Code>{`const frame = document.querySelector('iframe').contentWindow;
frame.postMessage({ command: 'sendChat', message: 'Hello!' }, '${origin}');
frame.postMessage({ command: 'setMic', message: false }, '${origin}');
window.addEventListener('message', (e) => {
  if (e.origin === '${origin}') console.log(e.data); // { event, data }
});`}</Code>
      </Section>

      <Section id="access" title="Private avatars">
        <P>
          In the ADVANCED tab, Encryption decides who may talk to an avatar: Default (the access link's token), None (anyone with the link),
          or one of your encryption keys. With a key, your server signs a short-lived token with the private key shown once at creation, and
          the access link carries it:
        </P>
        <Code>{`// ES256 JWT, signed with your private key (PEM)
header:  { "alg": "ES256", "typ": "JWT" }
payload: { "sub": "{avatarId}", "jti": "{unique id}", "iat": now, "exp": now + 600 }   // exp at most 1 hour
link:    ${origin}/avatar/{avatarId}?jwt={token}`}</Code>
        <P>Each token works once (its jti), so issue one per visitor.</P>
      </Section>

      <Section id="rest" title="REST endpoint brain">
        <P>
          With the REST endpoint brain, {productName} sends your URL a POST for each event, with Authorization: Bearer and your REST API
          key:
        </P>
        <Code>{`{ "event": "LOGIN" | "CHAT" | "LOGOUT", "sessionId": "...", "userId": "...",
  "locale": "en-US", "message": "what the user said", "callbackUrl": "${origin}/api/..." }
→ answer { "reply": "text the avatar speaks" }  (empty is allowed)`}</Code>
        <P>POST to the callbackUrl later to make the avatar speak on its own.</P>
      </Section>
    </Container>
  );
}
