// Enable Transcript Download: the end user saves their own conversation (a text file the server
// serves with its key). Shown only when the conversation's `ready` gave a URL.
import { Icon } from './icons';

export function TranscriptButton({ url }: { url: string }) {
  return (
    <a
      className="round transcript-download"
      href={url}
      download
      aria-label="Download transcript"
      title="Download transcript"
      data-testid="transcript-download"
    >
      <Icon name="download" />
    </a>
  );
}
