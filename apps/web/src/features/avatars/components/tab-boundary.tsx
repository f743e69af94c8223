// An error boundary per editor tab (conventions: one per screen area): a failing tab shows its
// error and the rest of the editor keeps working.
import { Component, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { logger } from '../../../lib/logger';

export class TabBoundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    logger.error(`${this.props.name} tab failed`, error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => this.setState({ error: null })}>
            Retry
          </Button>
        }
      >
        The {this.props.name} tab could not be shown. Your other changes are kept.
      </Alert>
    );
  }
}
