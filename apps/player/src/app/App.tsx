// Loads the avatar for this page, then shows the player or an error page. The player has its
// own error boundary: a bug in a renderer must not blank a customer's site.
import { Component, useCallback, useEffect, useState, type ReactNode } from 'react';
import { resolveConfig, type PlayerConfig } from '../config/player-config';
import { ErrorPage } from '../ui/ErrorPage';
import { loadAvatar, routeOf, type LoadResult } from './load-avatar';
import { Player } from './Player';

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(err: unknown) {
    console.error('player failed', err);
  }
  override render() {
    return this.state.failed ? <ErrorPage reason="failed" onRetry={() => location.reload()} /> : this.props.children;
  }
}

export function App() {
  const [result, setResult] = useState<(LoadResult & { config?: PlayerConfig }) | null>(null);
  const load = useCallback(() => {
    setResult(null);
    const route = routeOf(location.pathname);
    const query = new URLSearchParams(location.search);
    if (!route) {
      setResult({ ok: false, reason: 'not-available' });
      return;
    }
    void loadAvatar(route, query).then((r) => {
      if (r.ok) document.title = r.avatar.name;
      setResult(r.ok ? { ...r, config: resolveConfig(r.avatar, query) } : r);
    });
  }, []);
  useEffect(load, [load]);

  if (!result)
    return (
      <div className="player loading" data-testid="player-loading">
        <div className="spinner" aria-label="Loading" />
      </div>
    );
  if (!result.ok) return <ErrorPage reason={result.reason} onRetry={result.reason === 'failed' ? load : undefined} />;
  return (
    <Boundary>
      <Player avatar={result.avatar} config={result.config!} />
    </Boundary>
  );
}
