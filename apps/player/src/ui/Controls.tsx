// Mic, speaker, full screen and end-chat buttons; placed by controlButtonPosition.
import type { ControlButtonPosition } from '@parla/shared/embed-params';
import { Icon } from './icons';

interface Props {
  position: ControlButtonPosition;
  mic: boolean | null;
  speaker: boolean;
  fullscreen: boolean | null;
  showSpeaker: boolean;
  onMic(on: boolean): void;
  onSpeaker(on: boolean): void;
  onFullscreen(): void;
  onHangUp(): void;
}

export function Controls({ position, mic, speaker, fullscreen, showSpeaker, onMic, onSpeaker, onFullscreen, onHangUp }: Props) {
  return (
    <div className={`controls ${position}`} data-testid="controls" data-position={position}>
      {mic !== null && (
        <button type="button" className={`round${mic ? ' on' : ''}`} aria-label="Microphone" aria-pressed={mic} onClick={() => onMic(!mic)}>
          <Icon name={mic ? 'mic' : 'micOff'} />
        </button>
      )}
      {showSpeaker && (
        <button
          type="button"
          className={`round${speaker ? ' on' : ''}`}
          aria-label="Speaker"
          aria-pressed={speaker}
          onClick={() => onSpeaker(!speaker)}
        >
          <Icon name={speaker ? 'speaker' : 'speakerOff'} />
        </button>
      )}
      {fullscreen !== null && (
        <button type="button" className="round" aria-label={fullscreen ? 'Exit full screen' : 'Full screen'} onClick={onFullscreen}>
          <Icon name={fullscreen ? 'exitFullscreen' : 'fullscreen'} />
        </button>
      )}
      <button type="button" className="round hang-up" aria-label="End chat" onClick={onHangUp}>
        <Icon name="hangUp" />
      </button>
    </div>
  );
}
