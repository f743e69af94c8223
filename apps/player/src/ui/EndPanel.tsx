// The conversation ended without the user ending it (idle, demo over, a refusal, a reconnect
// that did not work): what happened, in plain words, and a way to start again.
export function EndPanel({ message, canRestart, onRestart }: { message: string; canRestart: boolean; onRestart(): void }) {
  return (
    <div className="ended" role="alert" data-testid="conversation-ended">
      <p>{message}</p>
      {canRestart && (
        <button type="button" className="pill" onClick={onRestart}>
          Start again
        </button>
      )}
    </div>
  );
}
