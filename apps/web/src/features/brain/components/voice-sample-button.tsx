// "Play sample" beside the Voice list (issue 35 item 2): the selected built-in voice says a
// sentence, synthesised by this server's embedded voice (the same one visitors hear), played in
// the browser. Pressing it again while it plays stops it.
import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { EmbeddedVoiceId } from '@parla/shared/embedded-voices';
import { errorLines } from '../../../lib/api-client';
import { getVoiceSample } from '../api/get-voice-sample';

type State = 'idle' | 'loading' | 'playing';

export function VoiceSampleButton({ voice, voiceName }: { voice: EmbeddedVoiceId; voiceName: string }) {
  const [state, setState] = useState<State>('idle');
  const [error, setError] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  const url = useRef<string | null>(null);

  const stop = () => {
    audio.current?.pause();
    if (url.current) URL.revokeObjectURL(url.current);
    url.current = null;
    setState('idle');
  };
  // Another voice chosen, or the form closed: the sample stops.
  useEffect(() => stop, [voice]);

  const play = async () => {
    if (state !== 'idle') return stop();
    setError(null);
    setState('loading');
    try {
      const blob = await getVoiceSample(voice);
      url.current = URL.createObjectURL(blob);
      const el = audio.current!;
      el.src = url.current;
      await el.play();
      setState('playing');
    } catch (err) {
      setError(`The sample could not be played: ${errorLines(err).join(' ')}`);
      stop();
    }
  };

  return (
    <Box sx={{ mt: 1 }}>
      <Button
        variant="outlined"
        size="small"
        onClick={() => void play()}
        aria-label={state === 'playing' ? `Stop the sample of ${voiceName}` : `Play sample of ${voiceName}`}
        startIcon={state === 'loading' ? <CircularProgress size={14} /> : undefined}
      >
        {state === 'playing' ? 'Stop sample' : state === 'loading' ? 'Loading sample…' : 'Play sample'}
      </Button>
      <audio ref={audio} data-testid="voice-sample-audio" data-voice={voice} onEnded={stop} hidden />
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
