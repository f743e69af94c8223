// The dial page: the avatar's picture and name, and the LET'S CHAT button (spec 2: client JSON
// button text; dialPageBackground and hideLetsChatBtn embed parameters).
import type { CSSProperties } from 'react';

interface Props {
  name: string;
  previewURL: string;
  title: string;
  buttonText: string;
  hideButton: boolean;
  background: string | null;
  onStart(): void;
}

export function dialBackground(value: string | null): CSSProperties {
  if (!value) return {};
  return /^(https?:\/\/|\/)/i.test(value)
    ? { backgroundImage: `url("${value}")`, backgroundSize: 'cover', backgroundPosition: 'center' }
    : { background: value };
}

export function DialPage({ name, previewURL, title, buttonText, hideButton, background, onStart }: Props) {
  return (
    <section className="dial" data-testid="dial-page" style={dialBackground(background)}>
      <div className="dial-card">
        {previewURL && <img className="dial-photo" src={previewURL} alt="" />}
        <h1 className="dial-name">{name}</h1>
        {title && <p className="dial-title">{title}</p>}
        {!hideButton && (
          <button type="button" className="pill lets-chat" onClick={onStart}>
            {buttonText}
          </button>
        )}
      </div>
    </section>
  );
}
