import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Spec 001 §8: a DVR timeline that fails to render is logged and hides itself; the tab goes on. */
export class TimelineBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('DVR timeline hidden: it failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}
