// Chat history (a log), the message input, and the captions of what the avatar is saying.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Icon } from './icons';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
}

export function ChatHistory({ messages }: { messages: ChatMessage[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [messages]);
  if (messages.length === 0) return null;
  return (
    <div className="history" role="log" aria-label="Chat history" data-testid="chat-history" ref={ref}>
      {messages.map((m) => (
        <p key={m.id} className={`msg ${m.role}`}>
          {m.text}
        </p>
      ))}
    </div>
  );
}

export function ChatInput({ placeholder, onSend, disabled = false }: { placeholder: string; onSend(text: string): void; disabled?: boolean }) {
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
      <input aria-label="Message" placeholder={disabled ? 'The conversation has ended' : placeholder} disabled={disabled} value={text} maxLength={2000} onChange={(e) => setText(e.target.value)} autoComplete="off" />
      <button type="submit" className="round" aria-label="Send" disabled={disabled || !text.trim()}>
        <Icon name="send" />
      </button>
    </form>
  );
}

export function Captions({ text }: { text: string }) {
  return (
    <div className={`captions${text ? '' : ' empty'}`} aria-live="polite" aria-label="Captions" data-testid="captions">
      {text}
    </div>
  );
}
