// Shown when the avatar cannot be shown: unknown or private avatar (404/401), or a failure.
export function ErrorPage({ reason, onRetry }: { reason: 'not-available' | 'failed'; onRetry?: () => void }) {
  return (
    <main className="error-page" role="alert">
      <div className="error-card">
        <h1>{reason === 'not-available' ? 'This avatar is not available' : 'The avatar could not be loaded'}</h1>
        <p>
          {reason === 'not-available'
            ? 'The link may be wrong, the avatar may have been removed, or its access token has expired. Ask the site owner for a new link.'
            : 'Check your connection and try again.'}
        </p>
        {onRetry && (
          <button type="button" className="pill" onClick={onRetry}>
            Try again
          </button>
        )}
      </div>
    </main>
  );
}
