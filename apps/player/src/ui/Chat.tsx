// Chat history (a log), the message input, and the captions of what the avatar is saying.
import { useEffect, useRef, useState, type CSSProperties, type FormEvent, type Ref, type RefObject } from 'react';
import { Icon } from './icons';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
}

export function ChatHistory({
  messages,
  style,
  boxRef,
}: {
  messages: ChatMessage[];
  style?: CSSProperties | undefined;
  boxRef?: RefObject<HTMLDivElement | null>;
}) {
  const own = useRef<HTMLDivElement>(null);
  const ref = boxRef ?? own;
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [messages, ref]);
  if (messages.length === 0) return null;
  return (
    <div className="history" role="log" aria-label="Chat history" data-testid="chat-history" ref={ref} style={style}>
      {messages.map((m) => (
        <p key={m.id} className={`msg ${m.role}`}>
          {m.text}
        </p>
      ))}
    </div>
  );
}

/** `disabled`: why nothing can be sent now (shown in place of the placeholder). */
export function ChatInput({
  placeholder,
  onSend,
  disabled,
}: {
  placeholder: string;
  onSend(text: string): void;
  disabled?: string | undefined;
}) {
  const [text, setText] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = text.trim();
    if (!t || disabled) return;
    onSend(t);
    setText('');
  };
  return (
    <form className="chat-input" onSubmit={submit}>
      <input
        aria-label="Message"
        placeholder={disabled ?? placeholder}
        disabled={!!disabled}
        value={text}
        maxLength={2000}
        onChange={(e) => setText(e.target.value)}
        autoComplete="off"
      />
      <button type="submit" className="round" aria-label="Send" disabled={!!disabled || !text.trim()}>
        <Icon name="send" />
      </button>
    </form>
  );
}

/** Captions keep to the place the layout gives them; when clipped, their latest words show. */
export function Captions({ text, style, ref }: { text: string; style?: CSSProperties | undefined; ref?: Ref<HTMLDivElement> }) {
  return (
    <div
      className={`captions${text ? '' : ' empty'}`}
      aria-live="polite"
      aria-label="Captions"
      data-testid="captions"
      style={style}
      ref={ref}
    >
      {text}
    </div>
  );
}
